/**
 * What the reader-facing relevance floor and story collapsing do to the retrieval metrics: the
 * SciFact CI subset (40 dev claims, their abstracts and 200 distractors, as `quin eval regress
 * --subset` builds it), every run through search() with both off (as the evaluation runs) and on (as
 * a reader's search runs). Prints a markdown table (docs/evaluation.md#relevance-floor).
 *
 *   npx tsx eval/floor-effect.ts [--workspace DIR]
 */
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../lib/config';
import { sharedDataDir } from '../lib/paths';
import { search } from '../ranking';
import { selectQueries } from './datasets';
import { scoreQueries, type QueryOutcome } from './harness';
import { scifactSubset } from './subset';
import { openWorkspace, type Workspace } from './workspace';

const MODES = ['bm25', 'dense', 'hybrid'] as const;

async function measure(ws: Workspace, queries: ReturnType<typeof selectQueries>, mode: (typeof MODES)[number], reader: boolean) {
  const ctx = { ...ws.ctx, options: { ...ws.ctx.options, retrieveK: 4000, maxK: 1000, relevanceFloor: reader, oneStoryOnce: reader } };
  const per: QueryOutcome[] = [];
  for (const q of queries) {
    const res = await search(
      { q: q.text, k: 1000, perArticle: 1, halfLifeDays: null, mode, rerank: false, verdict: false, evidenceTop: 0 },
      ctx,
    );
    const snippets = res.results.map((r) => ({
      doc: ws.docIdOf(r.articleId) ?? '',
      sentenceStart: r.sentenceStart,
      sentenceEnd: r.sentenceEnd,
    }));
    per.push({ id: q.id, ranked: snippets.map((s) => s.doc), snippets });
  }
  return scoreQueries(queries, per);
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--workspace');
  const root = at > 0 ? path.resolve(process.argv[at + 1]!) : path.join(os.tmpdir(), 'quin-floor-effect');
  const base = loadConfig({ configFile: null, overrides: { dataDir: path.join(root, 'data') } });
  const shared = sharedDataDir();
  const sub = scifactSubset(
    path.join(shared, 'scifact/claims_train.jsonl'),
    path.join(shared, 'scifact/corpus.jsonl'),
    { claims: 40, distractors: 200, split: 'dev' },
    path.join(root, 'corpora'),
  );
  const queries = selectQueries(sub.queries, 'dev');
  const ws = await openWorkspace({ dataset: 'scifact-subset', corpusFile: sub.corpusFile, format: 'scifact', base, root, progress: false });
  const f = (x: number | null) => (x === null ? '–' : x.toFixed(4));
  const lines = [
    '| run | nDCG@10 off → on | Recall@100 off → on | Recall@1000 off → on | MRR@10 off → on |',
    '| --- | --- | --- | --- | --- |',
  ];
  try {
    for (const mode of MODES) {
      const [off, on] = [await measure(ws, queries, mode, false), await measure(ws, queries, mode, true)];
      const cell = (k: keyof typeof off) => `${f(off[k])} → ${f(on[k])}`;
      lines.push(`| ${mode} | ${cell('ndcg@10')} | ${cell('recall@100')} | ${cell('recall@1000')} | ${cell('mrr@10')} |`);
    }
  } finally {
    await ws.close();
  }
  process.stdout.write(lines.join('\n') + '\n');
}

void main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
