/**
 * The run registry of `quin eval`: each run is a way of answering every query through the one search
 * pipeline (ranking/search). A later stage adds a run by appending to EVAL_RUNS (e.g. `hybrid+rerank`
 * with a `setup` that loads its reranker into the context); a block of results that is not a ranking
 * (e.g. verdict accuracy) is an EvalSection, written under its own key in results.json.
 */
import type { Config } from '../lib/config';
import { createError } from '../lib/errors';
import type { RankingOptions, SearchContext } from '../ranking';
import type { DatasetName, EvalQuery } from './datasets';
import { RERANK_RUNS } from './rerank';
import { VERDICT_SECTION } from './verdict';

export interface EvalRun {
  /** Key in results.json. */
  name: string;
  description: string;
  mode: 'bm25' | 'dense' | 'hybrid';
  /** Ranking options that differ from the configured ones (fusion method, weights). */
  options?: Partial<RankingOptions>;
  /** Switches the context's reranker on for this run (off otherwise). */
  rerank?: boolean;
  /** Part of the default list (`quin eval` without --runs). */
  default: boolean;
  /**
   * Adds what the run needs to the context (e.g. a reranker). Returns a reason string instead when the
   * run cannot run here (model missing): it is then reported as skipped, not failed.
   */
  setup?(base: SearchContext, config: Config): Promise<Partial<SearchContext> | string>;
}

export const EVAL_RUNS: EvalRun[] = [
  { name: 'bm25', description: 'BM25 alone', mode: 'bm25', default: true },
  { name: 'dense', description: 'dense (encoder + FAISS) alone', mode: 'dense', default: true },
  {
    name: 'hybrid_rrf',
    description: 'Reciprocal Rank Fusion, k = 60, equal weights',
    mode: 'hybrid',
    options: { fusion: 'rrf', rrfK: 60, bm25Weight: 0.5 },
    default: true,
  },
  {
    name: 'hybrid_score',
    description: 'normalised score fusion with the configured BM25 weight',
    mode: 'hybrid',
    options: { fusion: 'score' },
    default: true,
  },
  ...RERANK_RUNS,
];

export interface EvalSectionInput {
  dataset: DatasetName;
  queries: EvalQuery[];
  /** The search context of the evaluated corpus (no reranker unless a section adds one). */
  ctx: SearchContext;
  config: Config;
  /** Corpus file of the dataset (e.g. to read gold evidence sentences). */
  corpusFile: string;
  /** The claims file evaluated (e.g. Climate-FEVER's per-evidence labels). */
  claimsFile?: string;
  /** Maps an article id of the scratch database to the dataset's document id. */
  docIdOf(articleId: number): string | undefined;
}

export interface EvalSection {
  /** Key in results.json (e.g. "verdict"). */
  name: string;
  /** Datasets it applies to. */
  datasets: DatasetName[];
  run(input: EvalSectionInput): Promise<unknown>;
}

export const EVAL_SECTIONS: EvalSection[] = [VERDICT_SECTION];

export function findRuns(names: readonly string[] | undefined): EvalRun[] {
  if (!names?.length) return EVAL_RUNS.filter((r) => r.default);
  return names.map((n) => {
    const run = EVAL_RUNS.find((r) => r.name === n);
    if (!run) throw createError('INVALID_INPUT', `unknown run "${n}" (known: ${EVAL_RUNS.map((r) => r.name).join(', ')})`);
    return run;
  });
}
