/**
 * Runs the evaluation queries through the search pipeline, one run at a time, and scores the
 * document rankings. A document's score is its best snippet's: the pipeline's per-article
 * de-duplication (1 per article) turns the snippet ranking into that document ranking. Time decay is
 * off (benchmark documents have no meaningful dates).
 */
import type { Config } from '../lib/config';
import { isQuinError } from '../lib/errors';
import type { Encoder } from '../indexer/types';
import { search, type SearchContext } from '../ranking';
import type { EvalQuery } from './datasets';
import { evidenceHitAt, mean, mrrAt, ndcgAt, recallAt, type SnippetSpan } from './metrics';
import type { EvalRun } from './runs';

/** Documents ranked per query (Recall@1000 needs 1000). */
export const EVAL_DEPTH = 1000;
/**
 * Snippets taken from each index in evaluation: deep enough that 1000 distinct documents come back
 * (SciFact has ~3.2 snippets per abstract). The product default (RETRIEVE_K, 500) is shallower;
 * the top 10 barely depends on it (docs/evaluation.md).
 */
export const EVAL_RETRIEVE_K = 4000;

export const METRIC_KEYS = ['ndcg@10', 'recall@100', 'recall@1000', 'mrr@10', 'evidence_hit@10'] as const;
export type MetricKey = (typeof METRIC_KEYS)[number];
export type RunMetrics = Record<MetricKey, number | null>;

export interface QueryOutcome {
  id: string;
  ranked: string[];
  snippets: SnippetSpan[];
  /** Set when the pipeline refused the query (QUERY_* error): scored as an empty ranking. */
  error?: string;
}

export interface RunOutcome {
  run: string;
  metrics: RunMetrics;
  perQuery: QueryOutcome[];
  seconds: number;
  /** Why the run did not run here (e.g. its model is missing). */
  skipped?: string;
}

export function scoreQueries(queries: readonly EvalQuery[], outcomes: readonly QueryOutcome[]): RunMetrics {
  const byId = new Map(outcomes.map((o) => [o.id, o]));
  const per = (f: (q: EvalQuery, o: QueryOutcome) => number, only: (q: EvalQuery) => boolean = () => true) =>
    mean(queries.filter(only).map((q) => f(q, byId.get(q.id) ?? { id: q.id, ranked: [], snippets: [] })));
  return {
    'ndcg@10': per((q, o) => ndcgAt(o.ranked, q.relevant, 10)),
    'recall@100': per((q, o) => recallAt(o.ranked, q.relevant, 100)),
    'recall@1000': per((q, o) => recallAt(o.ranked, q.relevant, 1000)),
    'mrr@10': per((q, o) => mrrAt(o.ranked, q.relevant, 10)),
    'evidence_hit@10': per(
      (q, o) => evidenceHitAt(o.snippets, q.evidence, 10),
      (q) => q.evidence.size > 0,
    ),
  };
}

/** An encoder that embeds each distinct text once per evaluation (every run re-asks for the same claims). */
export function memoEncoder(inner: Encoder): Encoder {
  const memo = new Map<string, Float32Array>();
  return {
    id: inner.id,
    dim: inner.dim,
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !memo.has(t)))];
      if (missing.length) (await inner.embed(missing)).forEach((v, i) => memo.set(missing[i]!, v));
      return texts.map((t) => memo.get(t)!);
    },
  };
}

export interface RunOptions {
  config: Config;
  docIdOf(articleId: number): string | undefined;
  retrieveK?: number;
  onQuery?(done: number): void;
}

export async function runQueries(run: EvalRun, queries: readonly EvalQuery[], base: SearchContext, opts: RunOptions): Promise<RunOutcome> {
  const started = Date.now();
  // The metrics read the whole ranking to depth 1000, the weak tail a reader is never shown included:
  // the reader-facing relevance floor and story collapsing are off here (docs/evaluation.md#relevance-floor).
  const reader = { relevanceFloor: false, oneStoryOnce: false };
  let ctx: SearchContext = {
    ...base,
    reranker: null,
    verdict: null,
    options: { ...base.options, retrieveK: opts.retrieveK ?? EVAL_RETRIEVE_K, ...reader, ...run.options },
  };
  if (run.setup) {
    const extra = await run.setup(ctx, opts.config);
    if (typeof extra === 'string') {
      const empty = Object.fromEntries(METRIC_KEYS.map((k) => [k, null])) as RunMetrics;
      return { run: run.name, metrics: empty, perQuery: [], seconds: 0, skipped: extra };
    }
    ctx = { ...ctx, ...extra };
  }
  const perQuery: QueryOutcome[] = [];
  for (const q of queries) {
    try {
      const res = await search(
        {
          q: q.text,
          k: EVAL_DEPTH,
          perArticle: 1,
          halfLifeDays: null,
          mode: run.mode,
          rerank: run.rerank === true,
          verdict: false,
          evidenceTop: 0,
        },
        ctx,
      );
      const snippets: SnippetSpan[] = [];
      for (const r of res.results) {
        const doc = opts.docIdOf(r.articleId);
        if (doc !== undefined) snippets.push({ doc, sentenceStart: r.sentenceStart, sentenceEnd: r.sentenceEnd });
      }
      perQuery.push({ id: q.id, ranked: snippets.map((s) => s.doc), snippets });
    } catch (err) {
      if (!isQuinError(err) || !err.code.startsWith('QUERY_')) throw err;
      perQuery.push({ id: q.id, ranked: [], snippets: [], error: `${err.code}: ${err.message}` });
    }
    opts.onQuery?.(perQuery.length);
  }
  return { run: run.name, metrics: scoreQueries(queries, perQuery), perQuery, seconds: (Date.now() - started) / 1000 };
}
