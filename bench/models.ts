/**
 * Latency of the model stages on real SciFact text (../shared/data): reranking one claim's candidates
 * at the depth in force (rerank.json's) and at twice that, and the NLI verdict for one claim (its top
 * results' evidence sentences), with the
 * configured models (default: our own quin-reranker / quin-nli). p50/p95/p99 over repeated claims.
 * Called by bench/search.ts (`npm run bench:search`); also runnable alone:
 *
 *   npx tsx bench/models.ts [--claims 30] [--json] [--write-docs]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../lib/config';
import { closeLoadedModels } from '../lib/models';
import { projectRoot, sharedDataDir } from '../lib/paths';
import { analyzeQuery } from '../ranking';
import { createRerankStage } from '../ranking/rerank';
import type { RerankCandidate, StageContext } from '../ranking/stages';
import type { SearchResult } from '../ranking/types';
import { createVerdictStage } from '../ranking/verdict';

export interface ModelBenchRow {
  name: string;
  model: string;
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

function summary(name: string, model: string, ms: number[]): ModelBenchRow {
  const s = [...ms].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { name, model, n: ms.length, p50: r(quantile(s, 0.5)), p95: r(quantile(s, 0.95)), p99: r(quantile(s, 0.99)) };
}

interface Doc {
  title: string;
  sentences: string[];
}

function scifact(): { claims: string[]; docs: Doc[] } | null {
  const dir = path.join(sharedDataDir(), 'scifact');
  if (!fs.existsSync(path.join(dir, 'corpus.jsonl'))) return null;
  const lines = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean);
  return {
    claims: lines('claims_train.jsonl').map((l) => (JSON.parse(l) as { claim: string }).claim),
    docs: lines('corpus.jsonl').map((l) => JSON.parse(l) as Doc),
  };
}

function candidates(docs: Doc[], start: number, n: number): RerankCandidate[] {
  return Array.from({ length: n }, (_, i) => {
    const d = docs[(start + i * 37) % docs.length]!;
    const sentences = d.sentences.slice(0, 5);
    return {
      snippetId: i,
      articleId: i,
      title: d.title,
      text: sentences.join(' '),
      sentences,
      publishedAt: null,
      source: 'scifact',
      bm25: 10 - i / n,
      dense: null,
      bm25Rank: i + 1,
      denseRank: null,
      fused: 1 - i / n,
    };
  });
}

function asResults(cands: RerankCandidate[]): SearchResult[] {
  return cands.map((c, i) => ({
    snippetId: c.snippetId,
    articleId: c.articleId,
    position: 0,
    sentenceStart: 0,
    sentenceEnd: c.sentences.length,
    title: c.title,
    url: '',
    source: c.source,
    publishedAt: null,
    text: c.text,
    evidence: c.sentences.slice(0, 3).map((s) => ({ text: s, start: 0, end: s.length, score: 1 })),
    score: 1 - i / 10,
    scores: { bm25: null, bm25Rank: null, dense: null, denseRank: null, fused: c.fused, rerank: null, recency: 1, final: 1 - i / 10 },
  }));
}

/** Rows for the benchmark table; empty (with a reason) when the data or a model is missing. */
export async function benchModels(config: Config, claimsToRun = 30): Promise<{ rows: ModelBenchRow[]; skipped: string[] }> {
  const data = scifact();
  if (!data) return { rows: [], skipped: [`shared SciFact data not found under ${sharedDataDir()}`] };
  const skipped: string[] = [];
  const rows: ModelBenchRow[] = [];
  const claims = data.claims.slice(0, claimsToRun);
  // No index here: the best-sentence input finds no cached sentence vectors and scores the sentences
  // on words alone, so it is measured without the cache look-up (about a millisecond).
  const noVectors = { sentenceVectors: { get: async (ss: string[]) => ss.map(() => null) } };
  const ctxOf = (claim: string) =>
    ({
      query: analyzeQuery(claim, { maxChars: 10_000 }),
      queryVector: new Float32Array(512),
      indexes: noVectors,
    }) as unknown as StageContext;
  const reranker = await createRerankStage(config, { model: config.rerankerModel ?? 'quin-reranker' }).catch(
    (e: Error) => (skipped.push(`reranker: ${e.message}`), null),
  );
  if (reranker) {
    for (const depth of [reranker.depth, 2 * reranker.depth]) {
      const stage = reranker.with({ depth });
      // Warm-up at the measured size: onnxruntime sizes its buffers on the first batches of a shape.
      for (let w = 0; w < 3; w++) await stage.rerank(candidates(data.docs, 7 + w, depth), ctxOf(claims[w % claims.length]!));
      const ms: number[] = [];
      for (const [i, claim] of claims.entries()) {
        const t = performance.now();
        await stage.rerank(candidates(data.docs, i * 101, depth), ctxOf(claim));
        ms.push(performance.now() - t);
      }
      rows.push(summary(`rerank ${depth} candidates`, reranker.id, ms));
    }
  }
  const verdict = await createVerdictStage(config, { model: config.nliModel ?? 'quin-nli' }).catch(
    (e: Error) => (skipped.push(`nli: ${e.message}`), null),
  );
  if (verdict) {
    // The verdict reads the claim and the sentences only (alignment + the NLI model): no vectors.
    const verdictCtx = (claim: string) => ctxOf(claim) as unknown as StageContext;
    // Warm-up as a serving process is warm (JIT, the lexicon's per-word caches): other documents, so
    // the measured claim–sentence pairs are still new to the aligner.
    for (const [i, claim] of claims.slice(0, 5).entries())
      await verdict.verdict(asResults(candidates(data.docs, 1000 + i * 53, verdict.depth)), verdictCtx(claim));
    const ms: number[] = [];
    for (const [i, claim] of claims.entries()) {
      const t = performance.now();
      await verdict.verdict(asResults(candidates(data.docs, i * 53, verdict.depth)), verdictCtx(claim));
      ms.push(performance.now() - t);
    }
    rows.push(
      summary(`NLI verdict, 1 claim (${verdict.settings.depth} results × ${verdict.settings.sentences} sentences)`, verdict.id, ms),
    );
  }
  return { rows, skipped };
}

export function formatModelRows(rows: ModelBenchRow[]): string {
  const lines = ['| stage | model | runs | p50 ms | p95 ms | p99 ms |', '| --- | --- | --- | --- | --- | --- |'];
  for (const r of rows) lines.push(`| ${r.name} | ${r.model} | ${r.n} | ${r.p50} | ${r.p95} | ${r.p99} |`);
  return lines.join('\n');
}

export const MODELS_DOC_START =
  '<!-- bench:models:start (generated by `npm run bench:search -- --write-docs` or `npx tsx bench/models.ts --write-docs`) -->';
export const MODELS_DOC_END = '<!-- bench:models:end -->';

/** The model-stage table as a Markdown section (machine and command included). */
export async function modelBenchMarkdown(config: Config, claimsToRun = 30): Promise<string> {
  const { rows, skipped } = await benchModels(config, claimsToRun);
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, onnxruntime-node (${config.ortProvider}, threads ${config.ortThreads || 'default'})`;
  return [
    `Model stages on SciFact text (${claimsToRun} claims; passages of 5 sentences, read as each model's settings say), ${machine}:`,
    '',
    formatModelRows(rows),
    ...skipped.map((s) => `\nSkipped: ${s}`),
  ].join('\n');
}

export function writeModelDocs(md: string): void {
  const file = path.join(projectRoot(), 'docs', 'benchmarks.md');
  const doc = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const a = doc.indexOf(MODELS_DOC_START);
  const b = doc.indexOf(MODELS_DOC_END);
  const next =
    a >= 0 && b > a
      ? doc.slice(0, a + MODELS_DOC_START.length) + '\n' + md + '\n' + doc.slice(b)
      : `${doc.trimEnd()}\n\n## Reranking and NLI\n\n${MODELS_DOC_START}\n${md}\n${MODELS_DOC_END}\n`;
  fs.writeFileSync(file, next);
  process.stderr.write(`updated ${file}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const args = process.argv.slice(2);
  const n = args.includes('--claims') ? Number(args[args.indexOf('--claims') + 1]) : 30;
  const config = loadConfig();
  if (args.includes('--json')) process.stdout.write(JSON.stringify(await benchModels(config, n), null, 2) + '\n');
  else {
    const md = await modelBenchMarkdown(config, n);
    process.stdout.write(md + '\n');
    if (args.includes('--write-docs')) writeModelDocs(md);
  }
  await closeLoadedModels();
}
