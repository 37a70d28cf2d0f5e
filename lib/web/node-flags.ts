import v8 from 'node:v8';

/**
 * The V8 flags the web server runs with (scripts/start.mjs forks it with them; bench/search.ts's
 * serving phase and bench/stages.ts run with them, so that they measure what serves).
 *
 * An old-space limit of 1,536 MB. Not for the limit itself — the live heap of a web process serving
 * 1M snippets is ~130 MB, the indexes live outside it — but for how V8 grows the heap below it: with
 * the limit V8 gives a large machine (~4 GB) it lets the heap grow about four-fold between full
 * collections, and as every search leaves the texts of ~1,000 candidates behind, the heap held
 * ~500 MB of garbage. Below its "high memory" limit V8 grows the heap by a smaller factor. At 1M, the
 * serving mix of bench/stages.ts three times each way, alternately: peak RSS 1,599–1,641 → 1,335–1,360
 * MB, latency within the runs' spread (docs/operations.md, "The web process's heap"). 1,536 MB is
 * also about the limit Node picks by itself on a 4 GB machine. A heap size the operator sets in
 * NODE_OPTIONS is left alone.
 */
export const WEB_OLD_SPACE_MB = 1536;

const HEAP_FLAG = /--max-old-space-size|--max_old_space_size|--max-heap-size|--max_heap_size/;

/**
 * The flags to start the web server's Node with, given its environment and the flags it is started
 * with already: none when NODE_OPTIONS or those flags size the heap themselves.
 */
export function webNodeFlags(env: Readonly<Record<string, string | undefined>> = process.env, execArgv: readonly string[] = []): string[] {
  const sized = HEAP_FLAG.test(env.NODE_OPTIONS ?? '') || execArgv.some((f) => HEAP_FLAG.test(f));
  return sized ? [] : [`--max-old-space-size=${WEB_OLD_SPACE_MB}`];
}

/** This process's V8 heap limit in MB (what the flags above set, plus the young generation), for the benchmarks' reports. */
export const heapLimitMB = (): number => Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20);
