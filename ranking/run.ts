/**
 * The bookkeeping of one search: per-stage timings, warnings, and the errors of the parts underneath
 * turned into QuinErrors (never a raw SQLite, FAISS or model exception).
 */
import { createError, isQuinError, type ErrorCode } from '../lib/errors';

const round = (ms: number) => Math.round(ms * 100) / 100;

export class SearchRun {
  readonly ms: Record<string, number> = {};
  readonly warnings: string[] = [];
  private readonly start = performance.now();

  /** Runs a stage, adding its time to `ms[name]`. */
  async time<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      this.ms[name] = round((this.ms[name] ?? 0) + performance.now() - t);
    }
  }

  timings(): Record<string, number> {
    return { ...this.ms, total: round(performance.now() - this.start) };
  }
}

/** Runs `fn`, turning anything that is not already a QuinError into `code`. */
export async function guard<T>(code: ErrorCode, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isQuinError(err)) throw err;
    throw createError(code, `${what} failed: ${err instanceof Error ? err.message : String(err)}`, undefined, err);
  }
}
