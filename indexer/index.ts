/**
 * indexer/: snippets → BM25 (SQLite FTS5 or Elasticsearch) and dense (sentence encoder + FAISS)
 * indexes. The one entry point for the rest of the project:
 * - openSearchIndexes(config, db): the query side (indexer/types.ts), opened once per process;
 * - runIndex(db, config, {signal, progress}): bring the indexes in step (CLI `quin index`, worker);
 * - verifyIndexes(db, config): do they hold exactly the database's snippets? (`quin index --verify`);
 * - indexStatus(db, config): counts, sizes, backends (admin dashboard).
 * See indexer/README.md.
 */
export type * from './types';
export { openSearchIndexes, closeSearchIndexes, bm25Location, dropElasticsearchIndex, type Bm25Location } from './open';
export { runIndex, type RunIndexOptions, type IndexRunStats, type ProgressFactory } from './run';
export { verifyIndexes, type VerifyReport, type VerifyCheck, type VerifyOptions } from './verify';
export { describeEsCluster, indexStatus, type IndexStatus } from './status';
export { createEncoder } from './encoders';
export { VectorCache } from './vectors/cache';
export { embedWithCache, ensureEmbedded, type EmbedStats } from './vectors/embed';
export { poolSnippet, type Pooling } from './vectors/pooling';
