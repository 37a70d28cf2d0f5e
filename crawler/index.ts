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
export { parseOpml, writeOpml, OPML_MAX_BYTES, type OpmlDocument, type OpmlFeed, type OpmlSkipped } from './opml';
export { importFeedList, feedListForExport, type FeedListImport } from './feed-list';
export { isBusyError } from './db-retry';
export { seedFeedsAtStart, addSeedFeeds, seedState, type SeedState, type SeedOutcome, type FeedCheck } from './seed-feeds';
export { feedState, hasProblem, RECENT_ITEMS, type FeedState, type FeedStateView, type RecentItems } from './feed-state';
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
