/**
 * Time decay, pure: r' = r · 2^(−age/h) (Quin's time-aware ranking). r must be ≥ 0 so that the decay
 * can only lower a score. Policy for the edge cases (docs/evaluation.md):
 * - h = Infinity (or null): no decay, factor 1.
 * - unknown publication date (imported corpora without dates, a page with no usable date): the text
 *   is neither new nor old, so it gets the median age of the query's dated matches — a neutral place
 *   among what it competes with — but never less than the time since it entered the archive (it
 *   cannot be newer than that). With no dated match at all, the time since it entered the archive.
 *   Factor 1 for undated text let a 2004 story outrank a 5-day-old one at a one-week half-life.
 *   Date filters (from/to/maxAgeDays) still exclude undated snippets.
 * - a date after t_now (clock skew, or asOf in the past): age 0, factor 1 — never a boost above 1.
 */
const DAY_MS = 86_400_000;

export function ageDays(publishedAt: Date, asOf: Date): number {
  return Math.max(0, asOf.getTime() - publishedAt.getTime()) / DAY_MS;
}

export function factorForAge(days: number, halfLifeDays: number | null): number {
  if (halfLifeDays === null || !Number.isFinite(halfLifeDays) || !Number.isFinite(days)) return 1;
  return Math.pow(2, -Math.max(0, days) / halfLifeDays);
}

export function recencyFactor(publishedAt: Date | null, asOf: Date, halfLifeDays: number | null): number {
  if (publishedAt === null || !Number.isFinite(publishedAt.getTime())) return 1;
  return factorForAge(ageDays(publishedAt, asOf), halfLifeDays);
}

/** The median of the ages (days), or null when there are none. */
export function medianAge(ages: readonly number[]): number | null {
  if (!ages.length) return null;
  const s = [...ages].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The age assumed for undated text: the median dated age, at least the time since it was archived. */
export function assumedAge(median: number | null, archivedAt: Date, asOf: Date): number {
  const sinceArchived = ageDays(archivedAt, asOf);
  return median === null ? sinceArchived : Math.max(median, sinceArchived);
}

export interface Recency {
  factor: number;
  basis: 'published' | 'undated' | 'off';
  /** The age used for undated text; null otherwise. */
  assumedAgeDays: number | null;
}

export function recencyOf(
  c: { publishedAt: Date | null; createdAt: Date },
  asOf: Date,
  halfLifeDays: number | null,
  median: number | null,
): Recency {
  if (halfLifeDays === null || !Number.isFinite(halfLifeDays)) return { factor: 1, basis: 'off', assumedAgeDays: null };
  if (c.publishedAt && Number.isFinite(c.publishedAt.getTime()))
    return { factor: recencyFactor(c.publishedAt, asOf, halfLifeDays), basis: 'published', assumedAgeDays: null };
  const days = assumedAge(median, c.createdAt, asOf);
  return { factor: factorForAge(days, halfLifeDays), basis: 'undated', assumedAgeDays: Math.round(days * 10) / 10 };
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
