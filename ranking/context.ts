/**
 * What the search pipeline needs besides the request: the indexes (opened once per process), the
 * database (snippet rows), the ranking settings and the optional model stages.
 */
import type { Config } from '../lib/config';
import type { Db } from '../lib/db/client';
import type { Encoder, SearchIndexes } from '../indexer/types';
import { PUBLIC_LIMITS } from './schema';
import type { DbProvider } from './snippets';
import type { RerankStage, VerdictStage } from './stages';

export type FusionMethod = 'rrf' | 'score';

export interface RankingOptions {
  /** Candidates taken from each index. */
  retrieveK: number;
  fusion: FusionMethod;
  rrfK: number;
  /** Weight of the BM25 run in the fusion; the dense run gets 1 − bm25Weight. */
  bm25Weight: number;
  /** Default half-life in days (null = no decay). */
  halfLifeDays: number | null;
  maxQueryChars: number;
  /** Default results per article on a page (0 = no de-duplication). */
  perArticle: number;
  /** Evidence sentences returned per result. */
  evidenceSentences: number;
  /**
   * Only real matches go on (ranking/floor.ts), and near-duplicate stories are shown once
   * (ranking/duplicates.ts). On for every reader-facing search; the retrieval evaluation switches
   * both off, because its metrics read the whole ranking to depth 1000, not what a reader is shown.
   */
  relevanceFloor: boolean;
  oneStoryOnce: boolean;
  /** Largest page size a request may ask for (the API's and the CLI's; the evaluation widens it for its depth-1000 runs). */
  maxK: number;
}

/** A model feature that is configured but cannot serve: which model, and what is wrong, in one line. */
export interface FeatureProblem {
  /** The model's folder name (never a server path). */
  model: string;
  problem: string;
}

export interface SearchContext {
  indexes: SearchIndexes;
  db: Db;
  /** The database's provider: enables the fast raw-SQL candidate reads (else the generated client). */
  provider?: DbProvider;
  options: RankingOptions;
  reranker?: RerankStage | null;
  verdict?: VerdictStage | null;
  /**
   * Stages whose model is configured but failed to load (missing, truncated, not ONNX): search goes
   * on without them and says so (a response warning, `verdictStatus: 'unavailable'`).
   */
  unavailable?: { reranker?: FeatureProblem; verdict?: FeatureProblem };
  /** The clock (tests fix it); request.asOf wins over it. */
  now?: () => Date;
}

/** The deepest page the evaluation reads (its runs ask for k = 1000). */
export const EVAL_PAGE_SIZE = 1000;

/** BM25's weight in the fusion for an encoder without a fitted one (USE-lite's, chosen on our SciFact train split). */
export const DEFAULT_BM25_WEIGHT = 0.8;

/**
 * Candidates taken from each index: deep enough that the reranker and the relevance floor see every
 * plausible match, shallow enough for the latency budget (docs/evaluation.md, tune-fusion at depth 500).
 */
export const RETRIEVE_K = 500;
/** Score fusion (min-max normalised, BM25 weight from the encoder) beat RRF on our SciFact splits (docs/evaluation.md). */
export const FUSION: FusionMethod = 'score';
/** k of Reciprocal Rank Fusion, when an evaluation asks for it: the usual 60 (Cormack et al.). */
export const RRF_K = 60;
/** Results per article on a page (0 = no de-duplication): one, so that a story's overlapping windows do not fill the page. */
export const PER_ARTICLE = 1;
/** Evidence sentences returned per result: what a result card shows. */
export const EVIDENCE_SENTENCES = 2;

/**
 * The ranking options. The fusion weight belongs to the encoder: the weight fitted for the encoder
 * that serves the dense index (`fitted`, from its model folder's fusion.json), else
 * DEFAULT_BM25_WEIGHT; an evaluation passes its own in `overrides`.
 */
export function rankingOptions(
  config: Pick<Config, 'halfLifeDays' | 'maxQueryChars'>,
  overrides: Partial<RankingOptions> = {},
  fitted?: Pick<Encoder, 'fusionBm25Weight'>,
): RankingOptions {
  return {
    retrieveK: RETRIEVE_K,
    fusion: FUSION,
    rrfK: RRF_K,
    bm25Weight: fitted?.fusionBm25Weight ?? DEFAULT_BM25_WEIGHT,
    halfLifeDays: config.halfLifeDays,
    maxQueryChars: config.maxQueryChars,
    perArticle: PER_ARTICLE,
    evidenceSentences: EVIDENCE_SENTENCES,
    relevanceFloor: true,
    oneStoryOnce: true,
    maxK: PUBLIC_LIMITS.maxK,
    ...overrides,
  };
}
