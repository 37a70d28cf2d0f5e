/**
 * How long this process's event loop has been kept from running (perf_hooks monitorEventLoopDelay):
 * a frozen loop makes every request and timer wait, so /api/health, /metrics and the worker's
 * heartbeat report it. Kept over a rolling minute (six 10-second windows), so that a health check
 * answered just after a freeze still says it happened.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface LoopDelay {
  /** 99th percentile and longest delay over about the last minute, milliseconds. */
  p99Ms: number;
  maxMs: number;
  /** Seconds the figures cover. */
  windowSeconds: number;
}

/** A delay this long (in the last minute) means the loop was blocked: health says "degraded". */
export const BLOCKED_MS = 1000;
const WINDOW_MS = 10_000;
const WINDOWS = 6;

interface Monitor {
  histogram: IntervalHistogram;
  past: { p99Ms: number; maxMs: number }[];
  startedAt: number;
}

const KEY = Symbol.for('quin.event-loop');
const ms = (ns: number) => Math.round(ns / 1e5) / 10;

function monitor(): Monitor {
  const g = globalThis as unknown as Record<symbol, Monitor | undefined>;
  if (g[KEY]) return g[KEY];
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  const m: Monitor = { histogram, past: [], startedAt: Date.now() };
  const roll = setInterval(() => {
    m.past.push({ p99Ms: ms(histogram.percentile(99)), maxMs: ms(histogram.max) });
    if (m.past.length > WINDOWS - 1) m.past.shift();
    histogram.reset();
  }, WINDOW_MS);
  roll.unref();
  g[KEY] = m;
  return m;
}

/** Starts measuring (at process start, so that the first report covers a freeze before it). */
export function watchEventLoop(): void {
  monitor();
}

/**
 * Forgets the delays measured so far: called once the search indexes and models have loaded at start.
 * Loading them holds the loop for seconds (reading model files, the aligner's lexicon), which is
 * expected once per process and must not make /api/health say "degraded" for the minute after.
 * Returns the longest delay forgotten, for the log.
 */
export function forgetStartupDelays(): number {
  const m = monitor();
  const longest = Math.max(ms(m.histogram.max), ...m.past.map((w) => w.maxMs), 0);
  m.histogram.reset();
  m.past = [];
  m.startedAt = Date.now();
  return longest;
}

/** The delay over the last minute (since measuring started, when that is more recent). */
export function eventLoopDelay(): LoopDelay {
  const m = monitor();
  const h = m.histogram;
  const now = h.count ? { p99Ms: ms(h.percentile(99)), maxMs: ms(h.max) } : { p99Ms: 0, maxMs: 0 };
  const all = [...m.past, now];
  return {
    p99Ms: Math.max(...all.map((w) => w.p99Ms)),
    maxMs: Math.max(...all.map((w) => w.maxMs)),
    windowSeconds: Math.round(Math.min(Date.now() - m.startedAt, WINDOW_MS * WINDOWS) / 1000),
  };
}
