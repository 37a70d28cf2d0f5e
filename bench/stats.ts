/** Latency statistics, pure. Percentiles by the nearest-rank method (the p-th percentile is a measured value). */

export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile ${p} outside (0, 100]`);
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}

export interface LatencySummary {
  n: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  mean: number | null;
}

export function summarize(ms: readonly number[]): LatencySummary {
  const r = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);
  return {
    n: ms.length,
    p50: r(percentile(ms, 50)),
    p95: r(percentile(ms, 95)),
    p99: r(percentile(ms, 99)),
    mean: r(ms.length ? ms.reduce((a, b) => a + b, 0) / ms.length : null),
  };
}
