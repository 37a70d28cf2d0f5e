/**
 * The crawler's public entry point: feeds → articles → snippets in the database.
 * Imports only lib/ (see the import rule in eslint.config.mjs and tests/architecture.test.ts).
 */
export { addFeed, findFeed, normalizeFeedUrl, removeFeed } from './feeds';
export { crawlStats, listFeedHealth, type CrawlStats, type FeedHealth } from './health';
export { importCorpus, IMPORT_FORMATS, type ImportSummary } from './import';
export { parseDate, isPlausibleDate } from './dates';
export { splitSentences } from './sentences';
export { makeSnippets, windowRanges, DEFAULT_WINDOW, type SnippetDraft, type WindowOptions } from './snippets';
export { storeArticle, storeArticles, deleteArticle, contentHash, type ArticleInput, type StoreResult } from './store';
