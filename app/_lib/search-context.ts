/**
 * Opens what the search pipeline needs, once per process: the BM25 and dense indexes with their
 * encoder (indexer/), and the optional reranker and verdict stages (ranking/, lib/models).
 */
import type { Config } from '../../lib/config';
import type { Db } from '../../lib/db/client';
import { createError } from '../../lib/errors';
import type { SearchContext } from '../../ranking';

export async function openSearchContext(_config: Config, _db: Db): Promise<SearchContext> {
  throw createError('INDEX_UNAVAILABLE', 'the search indexes are not available yet');
}
