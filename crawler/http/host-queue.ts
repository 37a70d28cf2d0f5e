/**
 * Politeness, with p-queue: one request at a time per host (a queue of concurrency 1 per host), a
 * minimum delay between two requests to the same host (raised by robots.txt Crawl-delay), a global
 * limit of requests in flight (one more queue), and the pauses servers ask for with Retry-After.
 *
 * A pause is never waited on beyond `maxPauseWaitMs`: a request to a host (429) or URL (503) that is
 * paused for longer fails at once with FETCH_PAUSED, both when it is asked for and when it reaches
 * the head of its host's queue after the pause began (a request queued behind the one that got the
 * 429 must not sleep until the pause ends). Waiting is cancellable through the caller's signal.
 */
import { setTimeout as delay } from 'node:timers/promises';
import PQueue from 'p-queue';
import { createError, isQuinError, type QuinError } from '../../lib/errors';

/** Longest pause (Retry-After, cool-down) a request waits for instead of failing with FETCH_PAUSED. */
export const MAX_PAUSE_WAIT_MS = 10_000;
/** The cool-down of a host one of whose URLs answered 503 with a Retry-After. */
const HOST_COOLDOWN_MS = 3_000;
/** Host states idle this long are forgotten (the worker meets many hosts over its life). */
const IDLE_FORGET_MS = 3600_000;

export function cancelled(signal?: AbortSignal): QuinError {
  const reason = signal?.reason;
  if (isQuinError(reason)) return reason;
  return createError('CANCELLED', reason instanceof Error ? reason.message : 'cancelled');
}

/** The error a wait ended with: the signal's reason when it fired (a QuinError), else the error itself. */
export function abortReason(err: unknown, signal?: AbortSignal): unknown {
  return signal?.aborted ? cancelled(signal) : err;
}

export function pausedError(what: string, untilMs: number, status: number | null): QuinError {
  const waitMs = Math.max(0, untilMs - Date.now());
  return createError(
    'FETCH_PAUSED',
    `${what} asked for a pause (Retry-After) of another ${Math.ceil(waitMs / 1000)} s; not waiting for it`,
    { retryAfterMs: waitMs, ...(status !== null ? { status } : {}) },
  );
}

interface HostState {
  queue: PQueue;
  /** Earliest start of the next request (end of the last one plus the delay, or a short pause). */
  nextAt: number;
  minDelayMs: number;
  pausedUntil: number;
  pauseStatus: number | null;
  lastUsed: number;
}

export class HostQueue {
  private readonly hosts = new Map<string, HostState>();
  private readonly pausedUrls = new Map<string, { until: number; status: number | null }>();
  private readonly global: PQueue;

  constructor(
    concurrency: number,
    private readonly defaultDelayMs: number,
    private readonly maxPauseWaitMs = MAX_PAUSE_WAIT_MS,
  ) {
    this.global = new PQueue({ concurrency });
  }

  private state(host: string): HostState {
    let s = this.hosts.get(host);
    if (!s) {
      if (this.hosts.size > 1000) this.forgetIdle();
      s = {
        queue: new PQueue({ concurrency: 1 }),
        nextAt: 0,
        minDelayMs: this.defaultDelayMs,
        pausedUntil: 0,
        pauseStatus: null,
        lastUsed: Date.now(),
      };
      this.hosts.set(host, s);
    }
    s.lastUsed = Date.now();
    return s;
  }

  private forgetIdle(): void {
    const now = Date.now();
    for (const [host, s] of this.hosts) {
      if (s.queue.size === 0 && s.queue.pending === 0 && s.pausedUntil < now && now - s.lastUsed > IDLE_FORGET_MS) this.hosts.delete(host);
    }
    for (const [url, p] of this.pausedUrls) if (p.until < now) this.pausedUrls.delete(url);
  }

  /** FETCH_PAUSED when `url` or its host is paused for longer than a request may wait; else the pause left (ms). */
  private pauseLeft(url: URL, s: HostState): number {
    const now = Date.now();
    const urlPause = this.pausedUrls.get(url.href);
    if (urlPause && urlPause.until - now > this.maxPauseWaitMs) throw pausedError(url.href, urlPause.until, urlPause.status);
    if (s.pausedUntil - now > this.maxPauseWaitMs) throw pausedError(url.host, s.pausedUntil, s.pauseStatus);
    return Math.max(0, (urlPause?.until ?? 0) - now, s.pausedUntil - now);
  }

  /** Throws FETCH_PAUSED at once when `url` may not be asked for now (used before anything is queued). */
  assertNotPaused(url: URL): void {
    const s = this.hosts.get(url.host);
    if (s) this.pauseLeft(url, s);
    else {
      const p = this.pausedUrls.get(url.href);
      if (p && p.until - Date.now() > this.maxPauseWaitMs) throw pausedError(url.href, p.until, p.status);
    }
  }

  /**
   * Runs `fn` when it is this host's turn, its delay and any short pause have passed, and a global
   * slot is free. `fn` reports a pause the answer asks for through `pause` before the next request
   * to the host starts. A wait that would end after `deadlineAt` fails at once with FETCH_TIMEOUT.
   */
  run<T>(url: URL, fn: () => Promise<T>, opts: { signal?: AbortSignal; deadlineAt?: number } = {}): Promise<T> {
    const { signal, deadlineAt = Infinity } = opts;
    this.assertNotPaused(url);
    const s = this.state(url.host);
    return s.queue.add(
      async () => {
        // Re-checked after each wait: a pause may begin while this request waits for its delay.
        for (let wait = this.waitLeft(url, s); wait > 0; wait = this.waitLeft(url, s)) {
          if (Date.now() + wait > deadlineAt) {
            throw createError('FETCH_TIMEOUT', `${url.host}: its turn comes in ${Math.ceil(wait / 1000)} s, after this fetch's deadline`, {
              phase: 'queue',
            });
          }
          try {
            await delay(wait, undefined, { signal });
          } catch (e) {
            throw abortReason(e, signal);
          }
        }
        try {
          return await this.global.add(fn, { signal });
        } finally {
          s.nextAt = Math.max(s.nextAt, Date.now() + s.minDelayMs);
        }
      },
      { signal },
    );
  }

  /** Milliseconds before `url` may be asked for (delay or short pause); FETCH_PAUSED for a long pause. */
  private waitLeft(url: URL, s: HostState): number {
    return Math.max(s.nextAt - Date.now(), this.pauseLeft(url, s));
  }

  /** The whole host asked for a pause (429 Too Many Requests): nothing is sent to it before `untilMs`. */
  pauseHost(host: string, untilMs: number, status: number | null): void {
    const s = this.state(host);
    if (untilMs > s.pausedUntil) {
      s.pausedUntil = untilMs;
      s.pauseStatus = status;
    }
  }

  /**
   * One URL asked for a pause (503 Service Unavailable): that URL is not asked for before `untilMs`,
   * and its host gets a short cool-down, so that the host's other URLs are still fetched in this pass
   * (a feed in maintenance is common; a whole site in maintenance answers 503 to each of them too).
   */
  pauseUrl(url: URL, untilMs: number, status: number | null): void {
    const prev = this.pausedUrls.get(url.href);
    if (!prev || prev.until < untilMs) this.pausedUrls.set(url.href, { until: untilMs, status });
    const s = this.state(url.host);
    s.nextAt = Math.max(s.nextAt, Math.min(untilMs, Date.now() + Math.min(HOST_COOLDOWN_MS, this.maxPauseWaitMs)));
  }

  /** Raises the host's minimum delay (robots.txt Crawl-delay); never lowers it below the default. */
  setMinDelay(host: string, ms: number): void {
    const s = this.state(host);
    s.minDelayMs = Math.max(this.defaultDelayMs, ms);
  }
}
