/**
 * The search context of a process (CLI run, web server): indexes opened once, the configured
 * reranker and verdict stages loaded once. A stage whose model is configured but missing fails here,
 * at start, with the setting to fix, rather than on the first query.
 */
import type { Config } from '../lib/config';
import type { Db } from '../lib/db/client';
import { openSearchIndexes } from '../indexer';
import { rankingOptions, type SearchContext } from './context';
import { createRerankStage } from './rerank';
import { createVerdictStage } from './verdict';

export interface OpenContextOptions {
  /** Load the reranker / verdict stages (default true). */
  rerank?: boolean;
  verdict?: boolean;
}

export async function openSearchContext(config: Config, db: Db, opts: OpenContextOptions = {}): Promise<SearchContext> {
  const [indexes, reranker, verdict] = await Promise.all([
    openSearchIndexes(config, db),
    opts.rerank === false ? null : createRerankStage(config),
    opts.verdict === false ? null : createVerdictStage(config),
  ]);
  return { indexes, db, provider: config.databaseProvider, options: rankingOptions(config, {}, indexes.encoder), reranker, verdict };
}
