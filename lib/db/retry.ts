/**
 * Retries for the database errors that concurrency makes normal: SQLite's "database is locked"
 * (SQLITE_BUSY: another process held the write lock for longer than the busy timeout; Prisma reports
 * it as P1008 "Operation has timed out") and PostgreSQL serialization failures and deadlocks.
 * Everything else is thrown. Every writer (crawler, importers, indexer, worker) goes through these,
 * so that a writer waits for another instead of failing because it wrote.
 */
import { isSqliteDb, SQLITE_BUSY_TIMEOUT_MS, type Db } from './client';
import { setTimeout as sleep } from 'node:timers/promises';

/** The transaction client handed to interactive transactions. */
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  let e: unknown = err;
  for (let i = 0; e && i < 6; i++) {
    out.push(e);
    const o = e as { cause?: unknown; meta?: { driverAdapterError?: unknown } };
    e = o.meta?.driverAdapterError ?? o.cause;
  }
  return out;
}

export function isBusyError(err: unknown): boolean {
  return causes(err).some((e) => {
    const o = e as { code?: unknown; originalCode?: unknown; message?: unknown };
    const text = `${String(o.code ?? '')} ${String(o.originalCode ?? '')} ${String(o.message ?? '')}`;
    return /SQLITE_BUSY|SQLITE_LOCKED|database is locked|\bP2034\b|\b40001\b|\b40P01\b|deadlock detected|could not serialize/i.test(text);
  });
}

/** True for a unique-constraint violation (Prisma P2002), e.g. two crawlers inserting the same URL. */
export function isUniqueViolation(err: unknown): boolean {
  return causes(err).some((e) => {
    const o = e as { code?: unknown; kind?: unknown };
    return o.code === 'P2002' || o.code === '23505' || o.kind === 'UniqueConstraintViolation' || o.code === 'SQLITE_CONSTRAINT_UNIQUE';
  });
}

export interface RetryOptions {
  /** Tries in all (default 6). */
  attempts?: number;
  /** Also stop retrying once this much time has passed since the first try (default: no limit). */
  maxWaitMs?: number;
  /** First wait; it doubles per try, jittered, up to MAX_BACKOFF_MS. */
  baseMs?: number;
  retryOn?: (e: unknown) => boolean;
}

/** Longest pause between two tries: a writer holds the lock for a batch at most, rarely more than a second. */
const MAX_BACKOFF_MS = 1000;

export async function withDbRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? 6;
  const retryOn = opts.retryOn ?? isBusyError;
  const started = Date.now();
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      const late = opts.maxWaitMs !== undefined && Date.now() - started > opts.maxWaitMs;
      if (i >= attempts || late || !retryOn(e)) throw e;
      // Jittered exponential wait so that competing processes do not collide again at once.
      await sleep(Math.min(MAX_BACKOFF_MS, (opts.baseMs ?? 50) * 2 ** (i - 1)) * (0.5 + Math.random()));
    }
  }
}

/**
 * Takes SQLite's write lock now, at the start of the transaction, without waiting for it: a
 * transaction that reads and then writes otherwise takes its snapshot at the first read, and when
 * another process commits before its first write, SQLite refuses that write at once with
 * SQLITE_BUSY_SNAPSHOT (`quin index` beside `quin import` failed 5 runs of 8 so, "Operation has
 * timed out"). Taken first, the lock is either had — nothing can change under the transaction — or
 * refused at once (busy timeout 0 for this one statement): the caller retries after an asynchronous
 * pause, so that the other writer, in this process or another, can finish. (Prisma's adapter only
 * issues a deferred BEGIN; waiting inside the busy timeout would block this process's event loop
 * and with it a writer of the same process that holds the lock.)
 */
async function takeWriteLock(tx: Tx): Promise<void> {
  await tx.$queryRawUnsafe('PRAGMA busy_timeout = 0');
  try {
    // Any write statement takes the lock, even one that changes no row.
    await tx.$executeRawUnsafe('UPDATE _quin_migrations SET name = name WHERE 0');
  } finally {
    await tx.$queryRawUnsafe(`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  }
}

/** How long a writer keeps trying to get the database before it fails (the other writer's longest transaction, with room). */
export const WRITE_WAIT_MS = 120_000;

/**
 * A transaction that writes: the write lock first (SQLite), retried as a whole while another writer
 * holds the database (SQLite BUSY, PostgreSQL serialization failures), for up to WRITE_WAIT_MS.
 */
export function writeTransaction<T>(
  db: Db,
  fn: (tx: Tx) => Promise<T>,
  opts: { timeout?: number; retryOn?: (e: unknown) => boolean } = {},
): Promise<T> {
  const sqlite = isSqliteDb(db);
  return withDbRetry(
    () =>
      db.$transaction(
        async (tx) => {
          if (sqlite) await takeWriteLock(tx);
          return fn(tx);
        },
        { timeout: opts.timeout ?? 60_000, maxWait: 30_000 },
      ),
    { attempts: 1000, maxWaitMs: WRITE_WAIT_MS, retryOn: opts.retryOn ?? isBusyError },
  );
}

/** An interactive transaction that writes (writeTransaction). */
export function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return writeTransaction(db, fn);
}
