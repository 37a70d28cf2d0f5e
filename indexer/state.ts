/**
 * What the database says about the indexes: checkpoints (index_state), the FAISS position map
 * (dense_entries), the Elasticsearch ledger (es_entries), and the snippets to index. Works on SQLite
 * and PostgreSQL through the one Prisma client.
 */
import type { Db } from '../lib/db/client';
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
export async function denseEntries(db: Db): Promise<{ position: number; snippetId: number }[]> {
  const out: { position: number; snippetId: number }[] = [];
  let after = -1;
  for (;;) {
    const page = await db.denseEntry.findMany({ where: { position: { gt: after } }, orderBy: { position: 'asc' }, take: 50_000 });
    out.push(...page);
    if (page.length < 50_000) return out;
    after = page[page.length - 1]!.position;
  }
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

async function existingIds(tx: Tx, ids: number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (const part of chunks(ids, SQL_CHUNK)) {
    for (const r of await tx.snippet.findMany({ where: { id: { in: part } }, select: { id: true } })) found.add(r.id);
  }
  return found;
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
      const live = await existingIds(
        tx,
        cp.entries.map((e) => e.snippetId),
      );
      for (const part of chunks(
        cp.entries.filter((e) => live.has(e.snippetId)),
        5_000,
      ))
        await tx.denseEntry.createMany({ data: part });
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
