/**
 * Keeps the FTS5 file of a PostgreSQL deployment in step with the snippets table (the SQLite-in-database
 * FTS5 table needs nothing: triggers maintain it). The file's own rows are the record of what it
 * holds; each batch of additions or removals is one SQLite transaction, so a kill loses at most the
 * batch in flight, which the next run (a fresh diff) redoes.
 */
import type { Db } from '../../lib/db/client';
import { diffIds } from '../diff';
import { yieldToEventLoop } from '../event-loop';
import { failpoint } from '../failpoint';
import { allSnippetIds, chunks, snippetRows, type SnippetToIndex } from '../state';
import type { Bm25SyncOptions, Bm25SyncStats } from './backend';

/** What the sync needs of the file: its ids, and batches applied in one transaction each. */
export interface FtsFileRows {
  clear(): void;
  ids(): number[];
  apply(add: readonly SnippetToIndex[], remove: readonly number[]): void;
}

export async function syncFtsFile(db: Db, fts: FtsFileRows, opts: Bm25SyncOptions): Promise<Bm25SyncStats> {
  const started = Date.now();
  if (opts.rebuild) fts.clear();
  const { missing, stale } = diffIds(await allSnippetIds(db), fts.ids());
  for (const part of chunks(stale, opts.batchSize)) fts.apply([], part);
  let added = 0;
  opts.onProgress?.(0, missing.length);
  for (const part of chunks(missing, opts.batchSize)) {
    await yieldToEventLoop();
    if (opts.signal?.aborted) break;
    const rows = await snippetRows(db, part);
    fts.apply(rows, []);
    added += rows.length;
    opts.onProgress?.(added, missing.length);
    failpoint('fts:after-batch');
  }
  return { backend: 'fts5-file', added, removed: stale.length, seconds: (Date.now() - started) / 1000 };
}
