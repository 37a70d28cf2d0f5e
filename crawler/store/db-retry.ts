/**
 * Retries for the database errors that concurrency makes normal: SQLite's "database is locked"
 * (SQLITE_BUSY, e.g. a deferred transaction that cannot upgrade to a write lock while another
 * process writes) and PostgreSQL serialization failures and deadlocks. Everything else is thrown.
 */
import type { Db } from '../../lib/db/client';
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

export async function withDbRetry<T>(
  fn: () => Promise<T>,
  opts: { attempts?: number; baseMs?: number; retryOn?: (e: unknown) => boolean } = {},
): Promise<T> {
  const attempts = opts.attempts ?? 6;
  const retryOn = opts.retryOn ?? isBusyError;
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= attempts || !retryOn(e)) throw e;
      // Jittered exponential wait so that competing processes do not collide again at once.
      await sleep((opts.baseMs ?? 50) * 2 ** (i - 1) * (0.5 + Math.random()));
    }
  }
}

/** An interactive transaction, retried as a whole when the database is busy. */
export function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return withDbRetry(() => db.$transaction(fn, { timeout: 60_000, maxWait: 30_000 }));
}
