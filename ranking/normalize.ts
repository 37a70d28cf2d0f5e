/**
 * Min-max normalisation, pure: the one used by score fusion (each run's scores) and by the reranking
 * stage (model and first-stage scores per query). Non-finite values score 0; when every finite value
 * is equal there is nothing to tell apart, and each gets full marks.
 */
export function minMaxScaler(values: readonly number[]): (x: number) => number {
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of values) {
    if (!Number.isFinite(x)) continue;
    lo = Math.min(lo, x);
    hi = Math.max(hi, x);
  }
  if (lo > hi) return () => 0;
  if (!(hi > lo)) return (x) => (Number.isFinite(x) ? 1 : 0);
  return (x) => (Number.isFinite(x) ? (x - lo) / (hi - lo) : 0);
}

export function minMax(values: readonly number[]): number[] {
  return values.map(minMaxScaler(values));
}
