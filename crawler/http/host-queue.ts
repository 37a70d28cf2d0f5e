/**
 * Politeness: at most one request at a time per host, a minimum delay between two requests to the
 * same host (raised by robots.txt Crawl-delay and by Retry-After), and a global limit of requests
 * in flight. Waiting is cancellable.
 */
import { createError } from '../../lib/errors';

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(cancelled(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits for `p`, or rejects as soon as `signal` fires (without leaving a listener or timer behind). */
function abortable(p: Promise<void>, signal?: AbortSignal): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(cancelled(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(cancelled(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    void p.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

export function cancelled(signal?: AbortSignal) {
  const reason = signal?.reason;
  return createError('CANCELLED', reason instanceof Error ? reason.message : 'cancelled');
}

class Semaphore {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw cancelled(signal);
    if (this.active < this.limit) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        this.active++;
        resolve();
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(cancelled(signal));
      };
      this.waiters.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  release(): void {
    this.active--;
    this.waiters.shift()?.();
  }
}

interface HostState {
  tail: Promise<void>;
  /** Earliest start of the next request (end of the last one plus the delay, or a Retry-After). */
  nextAt: number;
  minDelayMs: number;
}

export class HostQueue {
  private readonly hosts = new Map<string, HostState>();
  private readonly global: Semaphore;

  constructor(
    concurrency: number,
    private readonly defaultDelayMs: number,
  ) {
    this.global = new Semaphore(concurrency);
  }

  private state(host: string): HostState {
    let s = this.hosts.get(host);
    if (!s) {
      s = { tail: Promise.resolve(), nextAt: 0, minDelayMs: this.defaultDelayMs };
      this.hosts.set(host, s);
    }
    return s;
  }

  /** Runs `fn` when it is this host's turn, its delay has passed and a global slot is free. */
  async run<T>(host: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const s = this.state(host);
    const prev = s.tail;
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    // The next request waits for the previous one and for this one, even if this one gives up early.
    s.tail = prev.then(() => mine);
    let ran = false;
    try {
      await abortable(prev, signal);
      await sleep(s.nextAt - Date.now(), signal);
      await this.global.acquire(signal);
      ran = true;
      try {
        return await fn();
      } finally {
        this.global.release();
      }
    } finally {
      if (ran) s.nextAt = Math.max(s.nextAt, Date.now() + s.minDelayMs);
      release();
    }
  }

  /** Milliseconds before the host may be asked again (0 when it may be asked now). */
  waitFor(host: string): number {
    const s = this.hosts.get(host);
    return s ? Math.max(0, s.nextAt - Date.now()) : 0;
  }

  /** No request to `host` before `untilMs` (Retry-After). */
  block(host: string, untilMs: number): void {
    const s = this.state(host);
    s.nextAt = Math.max(s.nextAt, untilMs);
  }

  /** Raises the host's minimum delay (robots.txt Crawl-delay); never lowers it below the default. */
  setMinDelay(host: string, ms: number): void {
    const s = this.state(host);
    s.minDelayMs = Math.max(this.defaultDelayMs, ms);
  }
}
