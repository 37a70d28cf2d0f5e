/**
 * The latency side of the reranker's quality/latency curve: the reranking stage (passages built,
 * tokenised, scored in onnxruntime-node, mixed) timed on the real top candidates of SciFact dev claims
 * (candidates.ts's dump: 5-sentence abstract windows, the costly case), for each model folder, input
 * and depth; p50 / p95 over the claims after a warm-up. The best-sentence input is timed without the
 * sentence-vector look-up (about a millisecond in the product; the sentences are scored on words here).
 *
 *   npx tsx training/reranker/latency.ts [--threads 2] [--claims 40] [--depths 10,20,30,40] [--inputs window,best@320] [--max-lens 128,256]
 *     [--batches 8,32] [--out FILE] <folder>...
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CrossEncoder, MODEL_BATCH_SIZE } from '../../lib/models';
import { analyzeQuery, type RerankCandidate, type StageContext } from '../../ranking';
import { CrossEncoderRerankStage, type PassageInput } from '../../ranking/rerank';
import type { DumpedClaim } from './candidates';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

function candidatesOf(c: DumpedClaim, depth: number): RerankCandidate[] {
  return c.cands.slice(0, depth).map((x, i) => ({
    snippetId: x.snippet,
    articleId: i,
    title: x.title,
    text: x.text,
    sentences: x.sentences,
    publishedAt: null,
    source: 'scifact',
    bm25: null,
    dense: null,
    bm25Rank: x.bm25Rank,
    denseRank: x.denseRank,
    fused: x.fused,
  }));
}

async function main() {
  const flags = new Set(['threads', 'claims', 'depths', 'inputs', 'candidates', 'out', 'max-lens', 'batches']);
  const folders = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(i > 0 && flags.has(all[i - 1]!.replace(/^--/, ''))));
  const threads = Number(arg('threads', '2'));
  const n = Number(arg('claims', '40'));
  const depths = arg('depths', '10,20,30,40').split(',').map(Number);
  const inputs = arg('inputs', 'window,best@320').split(',');
  // Token limits to time (each capped by the folder's own); default: the folder's.
  const maxLens = arg('max-lens', '0').split(',').map(Number);
  // Pairs per onnxruntime call to time; default: the product's (lib/models/registry.ts).
  const batches = arg('batches', String(MODEL_BATCH_SIZE)).split(',').map(Number);
  const file = path.resolve(arg('candidates', '.cache/training/reranker/candidates-scifact.jsonl'));
  const claims = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as DumpedClaim)
    .filter((c) => c.split === 'dev')
    .slice(0, n + 3);
  const noVectors = { sentenceVectors: { get: async (ss: string[]) => ss.map(() => null) } };
  const ctxOf = (claim: string) =>
    ({ query: analyzeQuery(claim, { maxChars: 10_000 }), queryVector: new Float32Array(8), indexes: noVectors }) as unknown as StageContext;
  const rows: Record<string, unknown>[] = [];
  console.log(
    `${os.cpus().length} × ${os.cpus()[0]?.model}, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')}, threads ${threads}`,
  );
  for (const folder of folders) {
    for (const [maxLen, batchSize] of maxLens.flatMap((m) => batches.map((b) => [m, b] as const))) {
      const model = await CrossEncoder.load(folder, { threads, batchSize, ...(maxLen ? { maxLength: maxLen } : {}) });
      for (const inp of inputs) {
        const [how, chars] = inp.split('@') as [PassageInput, string | undefined];
        for (const depth of depths) {
          const stage = new CrossEncoderRerankStage(model, { depth, weight: 0.5, input: how, ...(chars ? { chars: Number(chars) } : {}) });
          for (const c of claims.slice(0, 3)) await stage.rerank(candidatesOf(c, depth), ctxOf(c.claim));
          const ms: number[] = [];
          for (const c of claims.slice(3)) {
            const cands = candidatesOf(c, depth);
            const t = performance.now();
            await stage.rerank(cands, ctxOf(c.claim));
            ms.push(performance.now() - t);
          }
          ms.sort((a, b) => a - b);
          const row = {
            model: path.relative(process.cwd(), folder) || path.basename(folder),
            maxLength: model.model.maxLength,
            batch: batchSize,
            input: inp,
            depth,
            n: ms.length,
            p50: Math.round(quantile(ms, 0.5) * 10) / 10,
            p95: Math.round(quantile(ms, 0.95) * 10) / 10,
          };
          rows.push(row);
          console.log(JSON.stringify(row));
        }
      }
      await model.close();
    }
  }
  const out = arg('out', '');
  if (out)
    fs.writeFileSync(out, JSON.stringify({ machine: `${os.cpus().length} × ${os.cpus()[0]?.model}`, threads, rows }, null, 1) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
