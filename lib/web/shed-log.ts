/**
 * A search refused because the service is busy (OVERLOADED: 503 with Retry-After, load-shed.ts) is
 * expected behaviour under load, not a failure. Each one is counted in /metrics
 * (`quin_search_requests_total{outcome="shed"}`) and the log says so at most once per
 * SHED_LOG_INTERVAL_MS, at warn, with the count and without a stack: logged as an error with its
 * stack, each refusal wrote about 1 KB, 4.4 MB a minute under 20 clients, burying every other line.
 * One log per web process, on globalThis, shared by the proxy (pages refused before rendering) and
 * the route handlers, as the gate is.
 */
import { createLogger, type Logger } from '../log';
import { processMetrics } from './metrics';

/** At most one line per interval about refused searches. */
export const SHED_LOG_INTERVAL_MS = 60_000;

export class ShedLog {
  private pending = 0;
  private reason = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: Logger,
    readonly intervalMs = SHED_LOG_INTERVAL_MS,
  ) {}

  /** One refusal; `reason` says what was full ("2 searches running, 4 waiting"). */
  note(reason: string): void {
    this.pending++;
    this.reason = reason;
    if (this.timer) return;
    // The first refusal of a busy spell is said at once (the operator learns of it now); the rest are
    // counted and said once per interval, while they last.
    this.flush('a search was refused: the service is busy (503 with Retry-After)');
    this.arm();
  }

  private arm(): void {
    this.timer = setTimeout(() => this.tick(), this.intervalMs);
    this.timer.unref();
  }

  private tick(): void {
    this.timer = null;
    if (this.pending === 0) return;
    this.flush(`${this.pending} searches refused in the last ${this.intervalMs / 1000} s: the service is busy (503 with Retry-After)`);
    this.arm();
  }

  private flush(msg: string): void {
    this.log.warn(msg, { refused: this.pending, reason: this.reason });
    this.pending = 0;
  }
}

const KEY = Symbol.for('quin.web.shed-log');

function shedLog(): ShedLog {
  const g = globalThis as unknown as Record<symbol, ShedLog | undefined>;
  g[KEY] ??= new ShedLog(createLogger('web'));
  return g[KEY];
}

/** A search refused as busy: counted, and logged as ShedLog says. */
export function searchShed(reason: string): void {
  processMetrics().searches.inc({ outcome: 'shed' });
  shedLog().note(reason);
}
