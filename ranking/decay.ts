/**
 * Time decay, pure: r' = r · 2^(−age/h) (Quin's time-aware ranking). r must be ≥ 0 so that the decay
 * can only lower a score. Policy for the edge cases (docs/evaluation.md#time-decay):
 * - h = null: no decay, factor 1 (`halfLifeDays=off` in a URL, `off` in the configuration).
 * - unknown publication date (imported corpora without dates, a page with no usable date): the text
 *   is neither new nor old, so it is ranked as if it were as old as the dated results it competes
 *   with for the first page — the median age of the REFERENCE_RESULTS dated matches with the best
 *   decayed scores — but never newer than the time since it entered the archive (it cannot be newer
 *   than that). With no dated match at all, the time since it entered the archive.
 *   Relevance then decides between an undated passage and those dated results: it neither dominates
 *   them (factor 1 let a 2004 story outrank a 5-day-old one at a one-week half-life) nor vanishes
 *   behind them because another corpus is old (the median age of *all* dated matches was set by
 *   however many 1987 wire stories matched a word of the query, and a relevance-1.0 BBC article fell
 *   to #15 behind HuffPost items of relevance 0.003–0.21).
 *   Date filters (from/to/maxAgeDays) still exclude undated snippets.
 * - a date after t_now (clock skew, or asOf in the past): age 0, factor 1 — never a boost above 1.
 */
const DAY_MS = 86_400_000;

export function ageDays(publishedAt: Date, asOf: Date): number {
  return Math.max(0, asOf.getTime() - publishedAt.getTime()) / DAY_MS;
}

export function factorForAge(days: number, halfLifeDays: number | null): number {
  if (halfLifeDays === null || !Number.isFinite(days)) return 1;
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

/** How many dated matches set the age of undated text: as many as the first page of a default search shows. */
export const REFERENCE_RESULTS = 10;

export interface DatedMatch {
  ageDays: number;
  relevance: number;
  /** 0 = reranked, 1 = below the reranker's depth (ranked after every tier-0 result). */
  tier?: number;
}

/**
 * The age assumed for undated text: the median age of the dated matches that would fill the first
 * page — the REFERENCE_RESULTS best by tier, then decayed score. Null when there is no dated match.
 */
export function referenceAge(dated: readonly DatedMatch[], halfLifeDays: number | null): number | null {
  const scored = dated.map((d) => ({
    age: d.ageDays,
    tier: d.tier ?? 0,
    score: decayed(d.relevance, factorForAge(d.ageDays, halfLifeDays)),
  }));
  scored.sort((a, b) => a.tier - b.tier || b.score - a.score || a.age - b.age);
  return medianAge(scored.slice(0, REFERENCE_RESULTS).map((d) => d.age));
}

/** The age assumed for undated text: the reference age, at least the time since it was archived. */
export function assumedAge(reference: number | null, archivedAt: Date, asOf: Date): number {
  const sinceArchived = ageDays(archivedAt, asOf);
  return reference === null ? sinceArchived : Math.max(reference, sinceArchived);
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
  reference: number | null,
): Recency {
  if (halfLifeDays === null) return { factor: 1, basis: 'off', assumedAgeDays: null };
  if (c.publishedAt && Number.isFinite(c.publishedAt.getTime()))
    return { factor: recencyFactor(c.publishedAt, asOf, halfLifeDays), basis: 'published', assumedAgeDays: null };
  const days = assumedAge(reference, c.createdAt, asOf);
  return { factor: factorForAge(days, halfLifeDays), basis: 'undated', assumedAgeDays: Math.round(days * 10) / 10 };
}

export function decayed(relevance: number, factor: number): number {
  const r = Number.isFinite(relevance) ? Math.max(0, relevance) : 0;
  return r * factor;
}
