/**
 * What the reranking stage reads, dumped for every SciFact and Climate-FEVER claim of the shared
 * training files (train and dev split): the top DEPTH candidates of the product's own hybrid search
 * (score fusion over BM25 and dense, the `quin eval` workspace and settings: 4,000 per index, no
 * relevance floor, no decay), each with its document, sentences, fused score, the evidence score of
 * each sentence against the claim (ranking/evidence.ts, as the stage computes it) and, for the
 * comparison of cascades, the relevance the previous reranking stage gave it when one is given.
 *
 * Train-split lists are the transformer's in-domain training data (hard negatives from our own BM25
 * and dense results); dev-split lists are where its settings are chosen (training/reranker/curve.py).
 *
 *   npx tsx training/reranker/candidates.ts [--depth 100] [--out .cache/training/reranker] [--first-stage <reranker folder>]
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_WINDOW } from '../../crawler';
import { loadClimateFever, loadScifactClaims, writeClimateCorpus, type DatasetName, type EvalQuery } from '../../eval/datasets';
import { EVAL_RETRIEVE_K, memoEncoder } from '../../eval/harness';
import { fileSha256, openWorkspace } from '../../eval/workspace';
import { loadConfig } from '../../lib/config';
import { search, type RerankCandidate, type RerankStage, type StageContext } from '../../ranking';
import { createRerankStage } from '../../ranking/rerank';
import { sentenceEvidenceScores } from '../../ranking/rerank/passage';
import { shared } from '../data';

export interface DumpedCandidate {
  doc: string;
  snippet: number;
  /** The snippet's sentence range in its document's numbering. */
  span: [number, number];
  title: string;
  sentences: string[];
  /** The snippet's text as stored (its sentences with the original spacing). */
  text: string;
  fused: number;
  bm25Rank: number | null;
  denseRank: number | null;
  /** Evidence score of each sentence against the claim (cosine of cached vectors + word overlap). */
  sentenceScores: number[];
  /** Relevance from the first stage given by --first-stage, when one was. */
  firstStage?: number;
}

export interface DumpedClaim {
  dataset: DatasetName;
  id: string;
  split: string;
  claim: string;
  relevant: string[];
  cands: DumpedCandidate[];
}

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};

async function dump(dataset: DatasetName, out: fs.WriteStream, depth: number, firstStage: string | null): Promise<void> {
  const base = loadConfig();
  const scratch = path.join(base.cacheDir, 'eval');
  let queries: EvalQuery[];
  let corpus: { format: string; path: string };
  let window = DEFAULT_WINDOW;
  if (dataset === 'climate-fever') {
    const claimsFile = shared('climate-fever', 'claims.jsonl');
    const cf = loadClimateFever(claimsFile);
    queries = cf.queries;
    const corpusFile = path.join(scratch, 'corpora', `climate-fever-${fileSha256(claimsFile).slice(0, 12)}.jsonl`);
    writeClimateCorpus(cf.claims, corpusFile);
    corpus = { format: 'jsonl', path: corpusFile };
    // As `quin eval climate-fever`: one evidence sentence per document, however short.
    window = { ...DEFAULT_WINDOW, minChars: 1 };
  } else {
    queries = loadScifactClaims(shared('scifact', 'claims_train.jsonl'));
    corpus = { format: 'scifact', path: shared('scifact', 'corpus.jsonl') };
  }
  queries = queries.filter((q) => q.relevant.size > 0);
  const ws = await openWorkspace({ dataset, corpora: [corpus], window, base, root: scratch });
  const previous = firstStage ? await createRerankStage(ws.config, { model: firstStage }) : null;
  let rows: Omit<DumpedCandidate, 'span'>[] = [];
  const capture: RerankStage = {
    id: 'capture',
    depth,
    async rerank(cands: RerankCandidate[], ctx: StageContext) {
      const scores = await sentenceEvidenceScores(cands, ctx);
      const first = previous ? await previous.rerank(cands, ctx) : null;
      rows = cands.map((c, i) => ({
        doc: ws.docIdOf(c.articleId) ?? '',
        snippet: c.snippetId,
        title: c.title,
        sentences: c.sentences,
        text: c.text,
        fused: c.fused,
        bm25Rank: c.bm25Rank,
        denseRank: c.denseRank,
        sentenceScores: scores[i]!.map((x) => Math.round(x * 1e5) / 1e5),
        ...(first ? { firstStage: first[i]!.relevance } : {}),
      }));
      return cands.map((c) => ({ rerank: 0, relevance: c.fused }));
    },
  };
  const ctx = {
    ...ws.ctx,
    indexes: { ...ws.indexes, encoder: memoEncoder(ws.indexes.encoder) },
    reranker: capture,
    verdict: null,
    options: { ...ws.ctx.options, fusion: 'score' as const, retrieveK: EVAL_RETRIEVE_K, relevanceFloor: false, oneStoryOnce: false },
  };
  let n = 0;
  for (const q of queries) {
    rows = [];
    await search(
      { q: q.text, k: 10, perArticle: 1, halfLifeDays: null, mode: 'hybrid', rerank: true, verdict: false, evidenceTop: 0 },
      ctx,
    );
    const spans = new Map(
      (
        await ws.db.snippet.findMany({
          where: { id: { in: rows.map((r) => r.snippet) } },
          select: { id: true, sentenceStart: true, sentenceEnd: true },
        })
      ).map((s) => [s.id, [s.sentenceStart, s.sentenceEnd] as [number, number]]),
    );
    const line: DumpedClaim = {
      dataset,
      id: q.id,
      split: q.split,
      claim: q.text,
      relevant: [...q.relevant],
      cands: rows.map((r) => ({ ...r, span: spans.get(r.snippet) ?? [0, r.sentences.length] })),
    };
    out.write(JSON.stringify(line) + '\n');
    if (++n % 100 === 0) console.log(`${dataset}: ${n}/${queries.length}`);
  }
  await ws.close();
  console.log(`${dataset}: ${n} claims`);
}

async function main() {
  const depth = Number(arg('depth', '100'));
  const dir = path.resolve(arg('out', '.cache/training/reranker'));
  const firstStage = process.argv.includes('--first-stage') ? arg('first-stage', '') : null;
  fs.mkdirSync(dir, { recursive: true });
  for (const dataset of ['scifact', 'climate-fever'] as const) {
    const file = path.join(dir, `candidates-${dataset}.jsonl`);
    const out = fs.createWriteStream(`${file}.tmp`);
    await dump(dataset, out, depth, firstStage);
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    fs.renameSync(`${file}.tmp`, file);
    console.log(`wrote ${file}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
