/**
 * The crawler's public entry point: feeds → articles → snippets in the database.
 * Imports only lib/ (see the import rule in eslint.config.mjs and tests/architecture.test.ts).
 */
export {
  addFeed,
  findFeed,
  normalizeFeedUrl,
  removeFeed,
  pauseFeed,
  resumeFeed,
  refreshFeedNow,
  setFeedInterval,
  setFeedTitle,
} from './feeds/manage';
export {
  crawlStats,
  listFeedHealth,
  ingestionPerDay,
  recentCrawlEvents,
  type CrawlStats,
  type FeedHealth,
  type DayIngestion,
  type CrawlEventView,
} from './feeds/health';
export { parseOpml, writeOpml, OPML_MAX_BYTES, type OpmlDocument, type OpmlFeed, type OpmlSkipped } from './feeds/opml';
export { importFeedList, feedListForExport, type FeedListImport } from './feeds/feed-list';
export { admitFeed, checkFeedUrl, MAX_URL_CHARS } from './feeds/admit';
export { isBusyError } from '../lib/db/retry';
export { seedFeedsAtStart, addSeedFeeds, seedState, type SeedState, type SeedOutcome, type FeedCheck } from './feeds/seed';
export { feedState, hasProblem, RECENT_ITEMS, type FeedState, type FeedStateView, type RecentItems } from './feeds/state';
export { runCrawlOnce, crawlLoop, type CrawlOptions, type CrawlRunSummary, type LoopOptions } from './crawl/run';
export type { FeedRunResult } from './crawl/check-feed';
export { probeFeed, type FeedProbe } from './feeds/probe';
export { parseThread, createParseThread, PARSE_DEADLINE_MS, type ParseThread } from './feeds/parse-thread';
export { parseFeed, type ParsedFeed, type FeedItem, type FeedFormat } from './feeds/parser';
export { assertUrlAllowed, createHttpClient, type HttpClient, type FetchResponse } from './http';
export { importCorpus, IMPORT_FORMATS, type ImportSummary } from './import';
export { parseReutersSgml, type ReutersDoc } from './import/reuters';
export { extractArticle, type ExtractedPage } from './extract/article';
export { parseDate, isPlausibleDate } from './text/dates';
export { decodeBody } from './text/charset';
export { splitSentences } from './text/sentences';
export { makeSnippets, windowRanges, DEFAULT_WINDOW, type SnippetDraft, type WindowOptions } from './text/snippets';
export { storeArticle, storeArticles, deleteArticle, contentHash, type ArticleInput, type StoreResult } from './store/articles';
