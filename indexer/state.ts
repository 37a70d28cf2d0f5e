/**
 * What the database says about the indexes: checkpoints (index_state), the FAISS position map
 * (dense_entries), the Elasticsearch ledger (es_entries), and the snippets to index. Works on SQLite
 * and PostgreSQL through the one Prisma client.
 */
import { isSqliteDb, sqliteReader, type Db } from '../lib/db/client';
import { yieldToEventLoop } from './event-loop';
import { isBusyError, withDbRetry, writeTransaction } from '../lib/db/retry';
import { createError } from '../lib/errors';

export type IndexName = 'dense' | 'elasticsearch';

export interface IndexStateRow {
  name: string;
  version: number;
  backend: string;
  encoderId: string | null;
  dim: number | null;
  factory: string | null;
  pooling: string | null;
  file: string | null;
  fileSha256: string | null;
  fileBytes: number | null;
  ntotal: number;
  updatedAt: Date;
}

export interface SnippetToIndex {
  id: number;
  text: string;
  sentenceSpans: string;
  title: string;
  source: string;
  publishedAt: Date | null;
}

/** Rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
export const SQL_CHUNK = 500;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export async function readState(db: Db, name: IndexName): Promise<IndexStateRow | null> {
  const row = await db.indexState.findUnique({ where: { name } });
  return row ? { ...row, fileBytes: row.fileBytes === null ? null : Number(row.fileBytes) } : null;
}

/** Every snippet id, ascending (paged by id so that a large table is never one giant result). */
export async function allSnippetIds(db: Db): Promise<number[]> {
  const out: number[] = [];
  let after = 0;
  for (;;) {
    const page = await db.snippet.findMany({ where: { id: { gt: after } }, select: { id: true }, orderBy: { id: 'asc' }, take: 50_000 });
    for (const r of page) out.push(r.id);
    if (page.length < 50_000) return out;
    after = page[page.length - 1]!.id;
  }
}

export async function snippetRows(db: Db, ids: readonly number[]): Promise<SnippetToIndex[]> {
  const out: SnippetToIndex[] = [];
  for (const part of chunks(ids, SQL_CHUNK)) {
    out.push(
      ...(await db.snippet.findMany({
        where: { id: { in: part } },
        select: { id: true, text: true, sentenceSpans: true, title: true, source: true, publishedAt: true },
      })),
    );
  }
  const byId = new Map(out.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is SnippetToIndex => r !== undefined);
}

/** FAISS position → snippet id, as the database has it. */
const ENTRY_PAGE = 50_000;

type EntryPage = (after: number, size: number) => Promise<(readonly [position: number, snippetId: number])[]>;

/** A page of the dense map after a position, through the direct reader on SQLite (rows as arrays), else the client. */
function entryPages(db: Db): EntryPage {
  const reader = sqliteReader(db);
  if (reader) {
    const stmt = reader.prepare('SELECT position, snippet_id FROM dense_entries WHERE position > ? ORDER BY position LIMIT ?').raw();
    return async (after, size) => stmt.all(after, size) as [number, number][];
  }
  return async (after, size) =>
    (
      await db.denseEntry.findMany({
        where: { position: { gt: after } },
        orderBy: { position: 'asc' },
        take: size,
        select: { position: true, snippetId: true },
      })
    ).map((e) => [e.position, e.snippetId] as const);
}

/**
 * Each entry of the dense map in position order, as two numbers, a page at a time with a turn of the
 * event loop between pages: what a reader builds its position map from. Read through the client as
 * objects, the 1M entries of a 1M index left ~195 MB of garbage in the heap at the moment it was
 * opened and raised the process's high-water mark by ~340 MB, which a web server kept as RSS; on
 * SQLite they are now rows of the direct reader.
 */
export async function forEachDenseEntry(
  db: Db,
  visit: (position: number, snippetId: number) => void,
  pageSize = ENTRY_PAGE,
): Promise<void> {
  const page = entryPages(db);
  for (let after = -1; ;) {
    const rows = await page(after, pageSize);
    for (const [position, snippetId] of rows) visit(position, snippetId);
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1]![0];
    await yieldToEventLoop();
  }
}

export async function denseEntries(db: Db): Promise<{ position: number; snippetId: number }[]> {
  const out: { position: number; snippetId: number }[] = [];
  await forEachDenseEntry(db, (position, snippetId) => out.push({ position, snippetId }));
  return out;
}

export async function countSnippets(db: Db): Promise<number> {
  return db.snippet.count();
}

export interface DenseCheckpoint {
  /** The version the new state is based on (optimistic check: another writer makes it a CONFLICT). */
  fromVersion: number | null;
  state: Omit<IndexStateRow, 'name' | 'version' | 'updatedAt'>;
  /** New entries; with `replace`, the complete map. */
  entries: { position: number; snippetId: number }[];
  replace: boolean;
}

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** Map entries per statement: they travel as one or two array parameters, not as a parameter a value. */
const ENTRY_CHUNK = 20_000;

/**
 * Inserts the entries whose snippets still exist (a snippet deleted meanwhile leaves its position a
 * tombstone), ENTRY_CHUNK a statement, in SQL over arrays: createMany over 1M entries, after reading
 * back which of their snippets exist, held ~1.2 GB in the client for 40 s — the 1M build's peak.
 */
async function insertDenseEntries(tx: Tx, sqlite: boolean, entries: readonly { position: number; snippetId: number }[]): Promise<void> {
  for (const part of chunks(entries, ENTRY_CHUNK)) {
    if (sqlite) {
      await tx.$executeRawUnsafe(
        `INSERT INTO dense_entries (position, snippet_id) SELECT json_extract(e.value, '$[0]'), json_extract(e.value, '$[1]') FROM json_each(?) e WHERE EXISTS (SELECT 1 FROM snippets s WHERE s.id = json_extract(e.value, '$[1]'))`,
        JSON.stringify(part.map((e) => [e.position, e.snippetId])),
      );
    } else {
      await tx.$executeRawUnsafe(
        `INSERT INTO dense_entries (position, snippet_id) SELECT t.p, t.s FROM unnest($1::int[], $2::int[]) AS t(p, s) WHERE EXISTS (SELECT 1 FROM snippets WHERE id = t.s)`,
        part.map((e) => e.position),
        part.map((e) => e.snippetId),
      );
    }
  }
}

/**
 * Commits a dense checkpoint in one transaction: the map entries (only for snippets that still
 * exist; a snippet deleted meanwhile leaves a tombstone) and the new state, version + 1.
 * Returns the new version.
 */
export async function commitDenseCheckpoint(db: Db, cp: DenseCheckpoint): Promise<number> {
  // A snippet deleted between the check and the insert (PostgreSQL, read committed) fails the foreign
  // key; the next attempt sees it gone. Another writer (an import's batch) is waited for, not failed on.
  let fkRetries = 0;
  const fk = (e: unknown) =>
    (/foreign key|FOREIGN KEY|P2003/.test(String((e as Error).message ?? e)) || (e as { code?: string }).code === 'P2003') &&
    ++fkRetries <= 3;
  return writeTransaction(
    db,
    async (tx) => {
      const current = await tx.indexState.findUnique({ where: { name: 'dense' } });
      if ((current?.version ?? null) !== cp.fromVersion) {
        throw createError(
          'CONFLICT',
          `the dense index changed under this indexer (version ${current?.version} ≠ ${cp.fromVersion}); is another indexer using this database?`,
        );
      }
      const version = (cp.fromVersion ?? 0) + 1;
      if (cp.replace) await tx.denseEntry.deleteMany({});
      await insertDenseEntries(tx, isSqliteDb(db), cp.entries);
      const data = { ...cp.state, fileBytes: cp.state.fileBytes === null ? null : BigInt(cp.state.fileBytes), version };
      if (current) await tx.indexState.update({ where: { name: 'dense' }, data });
      else await tx.indexState.create({ data: { name: 'dense', ...data } });
      return version;
    },
    { timeout: 300_000, retryOn: (e) => isBusyError(e) || fk(e) },
  );
}

export async function esLedger(db: Db): Promise<Map<number, string>> {
  const rows = await db.esEntry.findMany({ select: { snippetId: true, state: true } });
  return new Map(rows.map((r) => [r.snippetId, r.state]));
}

export async function esMarkPending(db: Db, ids: readonly number[]): Promise<void> {
  for (const part of chunks(ids, SQL_CHUNK)) {
    await withDbRetry(() =>
      db.$transaction([
        db.esEntry.deleteMany({ where: { snippetId: { in: part } } }),
        db.esEntry.createMany({ data: part.map((snippetId) => ({ snippetId, state: 'pending' })) }),
      ]),
    );
  }
}

export async function esMarkDone(db: Db, ids: readonly number[]): Promise<void> {
  for (const part of chunks(ids, SQL_CHUNK))
    await withDbRetry(() => db.esEntry.updateMany({ where: { snippetId: { in: part } }, data: { state: 'done' } }));
}

export async function esForget(db: Db, ids: readonly number[]): Promise<void> {
  for (const part of chunks(ids, SQL_CHUNK)) await withDbRetry(() => db.esEntry.deleteMany({ where: { snippetId: { in: part } } }));
}

/** `where` = the cluster URL (credentials removed) and index name, so a change of either is noticed. */
export async function writeEsState(db: Db, where: string, count: number): Promise<void> {
  const data = { backend: 'elasticsearch', file: where, ntotal: count };
  await withDbRetry(() =>
    db.indexState.upsert({
      where: { name: 'elasticsearch' },
      create: { name: 'elasticsearch', ...data, version: 1 },
      update: { ...data, version: { increment: 1 } },
    }),
  );
}
