/**
 * ranking/: query analysis, hybrid retrieval, fusion, time decay, evidence, filters and paging, with
 * `search()` as the one entry point (CLI, JSON API, web pages, evaluation).
 */
export { search, SCORE_NORMALIZATION } from './pipeline';
export { searchRequestSchema, searchResponseSchema, PUBLIC_LIMITS, MAX_DEPTH, type SearchRequestSchema } from './schema';
export { parseRequest, requestError, requestSchemaFor, limitsOf, toInstant, PARAM_LABELS, type RequestIssue } from './request';
export { minMax, minMaxScaler } from './normalize';
export { openSearchContext, type OpenContextOptions } from './open';
export { rankingOptions, EVAL_PAGE_SIZE, RETRIEVE_K, type RankingOptions, type SearchContext, type FusionMethod } from './context';
export { analyzeQuery, bm25Terms, detectKind, isStatement, STOP_WORDS } from './query';
export { fuseRrf, fuseScores, singleRun, type FusedCandidate, type Normalization } from './fusion';
export { recencyFactor, recencyOf, medianAge, referenceAge } from './decay';
export { pickEvidence, sentencesAtSpans, EVIDENCE_COSINE_WEIGHT } from './evidence';
export { termCoverage } from './floor';
export { loadRows, loadMeta, type DbProvider } from './snippets';
export { weeklyCoverage } from './coverage';
export {
  contentWords,
  decideMatches,
  rankByWords,
  MIN_DENSE,
  MIN_WORDS,
  type FactCheckCandidate,
  type FactCheckMatch,
} from './fact-checks';
export {
  groupStories,
  clusterStories,
  DEFAULT_STORY_OPTIONS,
  type Story,
  type StoryArticle,
  type StoryInput,
  type StoryOptions,
} from './stories';
export type { RerankStage, RerankCandidate, RerankScore, VerdictStage, StageContext } from './stages';
export type * from './types';
