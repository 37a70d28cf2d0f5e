/**
 * When a feed is checked next. Pure.
 * - After a success: the feed's interval, or longer when the feed itself asks for it (RSS ttl,
 *   sy:updatePeriod, Cache-Control max-age), the hint capped so a feed cannot silence itself.
 * - After a failure: exponential backoff from the interval (interval, 2×, 4×, …), at least any
 *   Retry-After, capped at backoffMaxMinutes. After brokenAfterFailures failures in a row the feed is
 *   "broken": it stays listed with its error and is still retried at the cap, never dropped.
 */

/** Cap of a failing feed's backoff: a day, so a feed that comes back is read again within a day. */
export const BACKOFF_MAX_MINUTES = 24 * 60;
/** Failures in a row after which a feed shows as broken (still retried at the cap): a few hours of an hourly feed. */
export const BROKEN_AFTER_FAILURES = 5;

export interface ScheduleInput {
  now: Date;
  intervalMinutes: number;
  /** Consecutive failures including this check (0 after a success). */
  failures: number;
  hintMinutes?: number | null;
  retryAfterMs?: number | null;
  backoffMaxMinutes: number;
  brokenAfterFailures: number;
}

export interface ScheduleDecision {
  nextCheckAt: Date;
  status: 'active' | 'broken';
  waitMinutes: number;
}

export function nextCheck(input: ScheduleInput): ScheduleDecision {
  const cap = Math.max(input.backoffMaxMinutes, 1);
  let wait: number;
  if (input.failures === 0) {
    wait = Math.max(input.intervalMinutes, Math.min(input.hintMinutes ?? 0, cap));
  } else {
    const backoff = input.intervalMinutes * 2 ** Math.min(input.failures - 1, 30);
    wait = Math.min(cap, Math.max(backoff, (input.retryAfterMs ?? 0) / 60_000));
  }
  return {
    nextCheckAt: new Date(input.now.getTime() + wait * 60_000),
    status: input.failures >= input.brokenAfterFailures ? 'broken' : 'active',
    waitMinutes: wait,
  };
}
