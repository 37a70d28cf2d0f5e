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
  /** Default half-life in days (Infinity = no decay). */
  halfLifeDays: number;
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

export interface SearchContext {
  indexes: SearchIndexes;
  db: Db;
  /** The database's provider: enables the fast raw-SQL candidate reads (else the generated client). */
  provider?: DbProvider;
  options: RankingOptions;
  reranker?: RerankStage | null;
  verdict?: VerdictStage | null;
  /** The clock (tests fix it); request.asOf wins over it. */
  now?: () => Date;
}

/** The deepest page the evaluation reads (its runs ask for k = 1000). */
export const EVAL_PAGE_SIZE = 1000;

/** BM25's weight in the fusion for an encoder without a fitted one (USE-lite's, chosen on our SciFact train split). */
export const DEFAULT_BM25_WEIGHT = 0.8;

/**
 * The ranking settings. The fusion weight belongs to the encoder: an explicit QUIN_FUSION_BM25_WEIGHT
 * wins, else the weight fitted for the encoder that serves the dense index (`fitted`, from its model
 * folder's fusion.json), else DEFAULT_BM25_WEIGHT.
 */
export function rankingOptions(
  config: Config,
  overrides: Partial<RankingOptions> = {},
  fitted?: Pick<Encoder, 'fusionBm25Weight'>,
): RankingOptions {
  return {
    retrieveK: config.retrieveK,
    fusion: config.fusion,
    rrfK: config.rrfK,
    bm25Weight: config.fusionBm25Weight ?? fitted?.fusionBm25Weight ?? DEFAULT_BM25_WEIGHT,
    halfLifeDays: config.halfLifeDays,
    maxQueryChars: config.maxQueryChars,
    perArticle: config.perArticleLimit,
    evidenceSentences: config.evidenceSentences,
    relevanceFloor: true,
    oneStoryOnce: true,
    maxK: PUBLIC_LIMITS.maxK,
    ...overrides,
  };
}
