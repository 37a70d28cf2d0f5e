/**
 * Overload sheds load instead of queueing it. Searches run the ranking pipeline, whose model stages
 * (rerank, verdict) hold the CPU for most of a second each; twenty clients at once used to make every
 * request wait 18 s. The gate lets SEARCH_CONCURRENCY searches run, keeps at most SEARCH_QUEUE
 * waiting (for at most SEARCH_QUEUE_WAIT_MS), and refuses the rest at once with OVERLOADED (503 and
 * Retry-After): a client told to come back soon is better served than one left waiting. One gate per
 * web process, on globalThis, so that the proxy (which answers HTML pages 503 before rendering) and
 * the route handlers share it.
 */
import os from 'node:os';
import { createError } from '../errors';

/** Searches in progress at once: about the CPUs (the model stages use a core each), at least 2. */
export const SEARCH_CONCURRENCY = Math.max(2, Math.min(8, os.availableParallelism()));
/** Searches that may wait for a slot (short: beyond it, waiting would take longer than retrying). */
export const SEARCH_QUEUE = SEARCH_CONCURRENCY * 2;
/** Longest wait for a slot before the search is refused after all. */
export const SEARCH_QUEUE_WAIT_MS = 3000;

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

export class Gate {
  private active = 0;
  private readonly waiting: Waiter[] = [];
  /** Recent run times (ms), for Retry-After. */
  private avgMs = 1000;

  constructor(
    readonly limit: number,
    readonly maxQueue: number,
    readonly maxWaitMs: number,
  ) {}

  /** True when every slot is taken (a new run would wait, or be refused). */
  busy(): boolean {
    return this.active >= this.limit;
  }

  /** True when a new run would be refused now. */
  saturated(): boolean {
    return this.active >= this.limit && this.waiting.length >= this.maxQueue;
  }

  /** Seconds after which a refused client may try again: about the time to work through the queue. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.min(30, Math.ceil(((this.waiting.length + this.limit) * this.avgMs) / this.limit / 1000)));
  }

  stats() {
    return { active: this.active, waiting: this.waiting.length, limit: this.limit, maxQueue: this.maxQueue };
  }

  private refuse(why: string) {
    const retryAfterSeconds = this.retryAfterSeconds();
    return createError('OVERLOADED', `the service is busy (${why}): try again in ${retryAfterSeconds} s`, { retryAfterSeconds });
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      if (this.waiting.length >= this.maxQueue) throw this.refuse(`${this.active} searches running, ${this.waiting.length} waiting`);
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          start: () => {
            clearTimeout(waiter.timer);
            resolve();
          },
          timer: setTimeout(() => {
            this.waiting.splice(this.waiting.indexOf(waiter), 1);
            reject(this.refuse(`no slot within ${this.maxWaitMs / 1000} s`));
          }, this.maxWaitMs),
        };
        this.waiting.push(waiter);
      });
    } else this.active++;
    // A waiter that was started took over its predecessor's slot (active unchanged).
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.avgMs = this.avgMs * 0.8 + (performance.now() - t0) * 0.2;
      const next = this.waiting.shift();
      if (next) next.start();
      else this.active--;
    }
  }
}

const KEY = Symbol.for('quin.web.search-gate');

/** This web process's search gate. */
export function searchGate(): Gate {
  const g = globalThis as unknown as Record<symbol, Gate | undefined>;
  g[KEY] ??= new Gate(SEARCH_CONCURRENCY, SEARCH_QUEUE, SEARCH_QUEUE_WAIT_MS);
  return g[KEY];
}
