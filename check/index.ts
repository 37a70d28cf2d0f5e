/**
 * check/: an article checked claim by claim against the coverage. `checkArticle()` is the entry point
 * (the CLI, the JSON API and the page); the claim extraction, the report and its exports are here too.
 * Imports crawler/ (fetching and sentences), ranking/ (the search) and lib/.
 */
export { checkArticle, parseCheckRequest, asOfFor, storedCopies, CHECK_CONCURRENCY, type CheckDeps } from './check-article';
export { extractClaims, articleSentences, type Claim, type Extraction, type Sentence } from './claims/extract';
export { fetchArticle, checkHttpConfig, binaryShare, CHECK_FETCH_TIMEOUT_MS, CHECK_MAX_PAGE_BYTES } from './input/fetch-article';
export { pastedArticle } from './input/pasted-text';
export { combineLabels, outcomeOf } from './verify/combine';
export { CHECK_RERANK_DEPTH, type RunSearch } from './verify/check-part';
export { buildReport, foldEvents, rerunHref, type ReportRequest } from './report/report';
export { reportCsv, CHECK_CSV_COLUMNS } from './report/csv';
export { SKIP_REASON_TEXT, VERDICT_TEXT, OUTCOME_TEXT } from './report/labels';
export * from './schema';
export type { StanceEvidence } from '../ranking/types';
