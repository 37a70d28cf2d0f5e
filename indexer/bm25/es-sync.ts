/**
 * Keeps an Elasticsearch index in step with the snippets table. ES is not transactional with the
 * database, so the ledger es_entries always covers what ES may hold: ids are written "pending" BEFORE
 * a bulk index and marked "done" after it; ids are forgotten only AFTER ES confirmed their delete. A
 * run first settles leftover "pending" ids (re-index if the snippet exists, delete otherwise).
 * Re-sending a document or a delete is harmless (keyed by id).
 */
import type { Db } from '../../lib/db/client';
import { createLogger } from '../../lib/log';
import { diffIds } from '../diff';
import { yieldToEventLoop } from '../event-loop';
import { failpoint } from '../failpoint';
import { allSnippetIds, chunks, esForget, esLedger, esMarkDone, esMarkPending, readState, snippetRows, writeEsState } from '../state';
import type { Bm25SyncOptions, Bm25SyncStats } from './backend';
import { analysedDocs } from './es-analysis';
import { ES_MAPPING_VERSION, vectorField, type EsDoc } from './es-query';

const log = createLogger('index:bm25');

/** What the sync needs of the index: create, drop, bulk writes, refresh. */
export interface EsWritable {
  ensureIndex(dim?: number): Promise<void>;
  dropIndex(): Promise<void>;
  bulk(add: readonly EsDoc[], remove: readonly number[]): Promise<void>;
  refresh(): Promise<void>;
}

export async function syncElasticsearch(
  db: Db,
  es: EsWritable,
  target: { url: string; index: string },
  opts: Bm25SyncOptions,
): Promise<Bm25SyncStats> {
  const started = Date.now();
  const state = await readState(db, 'elasticsearch');
  // The target names the documents' layout, and the encoder when ES holds the vectors: another
  // layout or encoder re-indexes everything.
  const index = `${target.url.replace(/\/\/[^@/]*@/g, '//')}#${target.index}`;
  const where = `${index}#${ES_MAPPING_VERSION}${opts.vectors ? `#${opts.vectors.id}` : ''}`;
  let ledger = await esLedger(db);
  if (opts.rebuild || (state && state.file !== where)) {
    // Another cluster or index name: what the ledger says is about a different index. The same index
    // with other (or no) vectors: its mapping and documents are dropped and written again.
    log.info(
      opts.rebuild
        ? 'rebuilding the Elasticsearch index'
        : `Elasticsearch target changed (${state?.file} → ${where}): indexing from scratch`,
    );
    const sameIndex = state?.file === index || state?.file?.startsWith(`${index}#`);
    if (opts.rebuild || sameIndex) await es.dropIndex();
    await esForget(db, [...ledger.keys()]);
    ledger = new Map();
  }
  await es.ensureIndex(opts.vectors?.dim);
  const dbIds = await allSnippetIds(db);
  const dbSet = new Set(dbIds);
  const pending = [...ledger].filter(([, s]) => s !== 'done').map(([id]) => id);
  const done = [...ledger].filter(([, s]) => s === 'done').map(([id]) => id);
  const { missing, stale } = diffIds(dbIds, done);
  // Pending ids whose snippet still exists are (re-)indexed; the others are deleted.
  const toAdd = [...new Set([...missing, ...pending.filter((id) => dbSet.has(id))])].sort((a, b) => a - b);
  const toRemove = [...new Set([...stale, ...pending.filter((id) => !dbSet.has(id))])];

  for (const part of chunks(toRemove, opts.batchSize)) {
    await es.bulk([], part);
    failpoint('es:after-delete');
    await esForget(db, part);
  }
  let added = 0;
  opts.onProgress?.(0, toAdd.length);
  for (const part of chunks(toAdd, opts.batchSize)) {
    await yieldToEventLoop();
    if (opts.signal?.aborted) break;
    await esMarkPending(db, part);
    failpoint('es:after-pending');
    const rows = await snippetRows(db, part);
    const found = new Set(rows.map((r) => r.id));
    const vanished = part.filter((id) => !found.has(id)); // deleted since the diff
    const vectors = opts.vectors ? await opts.vectors.of(rows) : [];
    const docs = analysedDocs(rows);
    await es.bulk(
      docs.map((d, i) => ({ ...d, ...(opts.vectors ? { vector: vectorField(vectors[i]) } : {}) })),
      vanished,
    );
    failpoint('es:after-bulk');
    await esMarkDone(db, [...found]);
    await esForget(db, vanished);
    added += rows.length;
    opts.onProgress?.(added, toAdd.length);
  }
  await es.refresh();
  await writeEsState(db, where, await db.esEntry.count());
  return { backend: 'elasticsearch', added, removed: toRemove.length, seconds: (Date.now() - started) / 1000 };
}
