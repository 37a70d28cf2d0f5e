/**
 * Time decay, pure: r' = r · 2^(−(t_now − t)/h) (Quin's time-aware ranking). r must be ≥ 0 so that
 * the decay can only lower a score. Policy for the edge cases (docs/evaluation.md):
 * - h = Infinity (or null): no decay, factor 1.
 * - unknown publication date: factor 1. Crawled articles always carry a date (the feed's, the page's or
 *   the time first seen), so undated snippets come only from imported corpora, where all are undated
 *   and a common factor changes nothing. Date filters (from/to/maxAgeDays) exclude undated snippets.
 * - a date after t_now (clock skew, or asOf in the past): age 0, factor 1 — never a boost above 1.
 */
const DAY_MS = 86_400_000;

export function recencyFactor(publishedAt: Date | null, asOf: Date, halfLifeDays: number | null): number {
  if (halfLifeDays === null || !Number.isFinite(halfLifeDays) || publishedAt === null) return 1;
  const t = publishedAt.getTime();
  if (!Number.isFinite(t)) return 1;
  const ageDays = Math.max(0, asOf.getTime() - t) / DAY_MS;
  return Math.pow(2, -ageDays / halfLifeDays);
}

export function decayed(relevance: number, factor: number): number {
  const r = Number.isFinite(relevance) ? Math.max(0, relevance) : 0;
  return r * factor;
}

/** The request's half-life, else the configured one; null means "off" (null or Infinity). */
export function resolveHalfLife(requested: number | null | undefined, fallback: number): number | null {
  const h = requested === undefined ? fallback : requested;
  if (h === null || !Number.isFinite(h)) return null;
  return h;
}
