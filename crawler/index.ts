/**
 * The crawler's public entry point: feeds → articles → snippets in the database.
 * Imports only lib/ (see the import rule in eslint.config.mjs and tests/architecture.test.ts).
 */
export { addFeed, findFeed, normalizeFeedUrl, removeFeed, pauseFeed, resumeFeed, refreshFeedNow, setFeedInterval } from './feeds';
export {
  crawlStats,
  listFeedHealth,
  ingestionPerDay,
  recentCrawlEvents,
  type CrawlStats,
  type FeedHealth,
  type DayIngestion,
  type CrawlEventView,
} from './health';
export { runCrawlOnce, crawlLoop, type CrawlOptions, type CrawlRunSummary, type LoopOptions } from './crawl';
export type { FeedRunResult } from './crawl-feed';
export { probeFeed, type FeedProbe } from './probe';
export { parseFeed, type ParsedFeed, type FeedItem, type FeedFormat } from './feed-parser';
export { assertUrlAllowed, createHttpClient, type HttpClient, type FetchResponse } from './http';
export { importCorpus, IMPORT_FORMATS, type ImportSummary } from './import';
export { parseReutersSgml, type ReutersDoc } from './import/reuters';
export { extractArticle, type ExtractedPage } from './extract';
export { parseDate, isPlausibleDate } from './dates';
export { splitSentences } from './sentences';
export { makeSnippets, windowRanges, DEFAULT_WINDOW, type SnippetDraft, type WindowOptions } from './snippets';
export { storeArticle, storeArticles, deleteArticle, contentHash, type ArticleInput, type StoreResult } from './store';
