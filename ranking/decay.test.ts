import { describe, expect, it } from 'vitest';
import { decayed, factorForAge, recencyFactor, recencyOf, referenceAge, REFERENCE_RESULTS } from './decay';

const asOf = new Date('2024-06-01T00:00:00Z');
const daysBefore = (d: number) => new Date(asOf.getTime() - d * 86_400_000);

describe('recencyFactor', () => {
  it('halves the score every half-life', () => {
    expect(recencyFactor(daysBefore(0), asOf, 365)).toBe(1);
    expect(recencyFactor(daysBefore(365), asOf, 365)).toBeCloseTo(0.5, 12);
    expect(recencyFactor(daysBefore(730), asOf, 365)).toBeCloseTo(0.25, 12);
    expect(recencyFactor(daysBefore(7), asOf, 7)).toBeCloseTo(0.5, 12);
  });
  it('is 1 when the decay is off, the date unknown, or the date after asOf', () => {
    expect(recencyFactor(daysBefore(5000), asOf, null)).toBe(1);
    expect(recencyFactor(daysBefore(5000), asOf, null)).toBe(1);
    expect(recencyFactor(null, asOf, 365)).toBe(1);
    expect(recencyFactor(daysBefore(-30), asOf, 365)).toBe(1);
    expect(recencyFactor(new Date(NaN), asOf, 365)).toBe(1);
  });
  it('orders an old strong result below a fresh weaker one when ages differ enough', () => {
    const oldStrong = decayed(1.0, recencyFactor(daysBefore(3 * 365), asOf, 365));
    const freshWeak = decayed(0.3, recencyFactor(daysBefore(10), asOf, 365));
    expect(freshWeak).toBeGreaterThan(oldStrong);
  });
});

describe('decayed', () => {
  it('clamps negative and non-finite relevance to 0', () => {
    expect(decayed(-1, 0.5)).toBe(0);
    expect(decayed(NaN, 0.5)).toBe(0);
    expect(decayed(2, 0.5)).toBe(1);
  });
});

describe('undated text (referenceAge, recencyOf)', () => {
  // The demo's corpora as a query sees them: many weak 1987 wire stories, a few weak 2018 items, and
  // an undated 2004 article that is the best match (the case of "What is the World Community Grid?" on the demo corpora).
  const now = new Date('2026-11-26T00:00:00Z');
  const YEAR = 365.25;
  const wire = Array.from({ length: 40 }, (_, i) => ({ ageDays: 39.4 * YEAR + i, relevance: 0.3 - i * 0.005 }));
  const huffpost = Array.from({ length: 14 }, (_, i) => ({ ageDays: 8.5 * YEAR + i * 5, relevance: 0.21 - i * 0.015 }));
  const importedToday = new Date(now.getTime() - 3_600_000);
  const rank = (items: { relevance: number; factor: number; name: string }[]) =>
    [...items].sort((a, b) => b.relevance * b.factor - a.relevance * a.factor).map((x) => x.name);

  it('takes the age of the dated results that would fill the first page, not of every dated match', () => {
    const ref = referenceAge([...wire, ...huffpost], 365)!;
    // The 2018 items fill the first page (1987 stories decay to nothing); their median age is the yardstick.
    expect(ref).toBeGreaterThan(8.5 * YEAR);
    expect(ref).toBeLessThan(8.7 * YEAR);
    // The old rule (median of all dated matches) would have made the article 39 years old.
    const strong = recencyOf({ publishedAt: null, createdAt: importedToday }, now, 365, ref);
    expect(strong.basis).toBe('undated');
    const ranked = rank([
      { name: 'undated strong', relevance: 1, factor: strong.factor },
      ...huffpost.map((h, i) => ({ name: `huffpost ${i}`, relevance: h.relevance, factor: factorForAge(h.ageDays, 365) })),
      ...wire.map((w, i) => ({ name: `wire ${i}`, relevance: w.relevance, factor: factorForAge(w.ageDays, 365) })),
    ]);
    expect(ranked.indexOf('undated strong')).toBe(0);
  });

  it('neither dominates nor vanishes: relevance decides against the dated results of the first page', () => {
    const ref = referenceAge(huffpost, 365)!;
    const f = recencyOf({ publishedAt: null, createdAt: importedToday }, now, 365, ref).factor;
    const ranked = rank([
      { name: 'undated weak', relevance: 0.05, factor: f },
      { name: 'undated mid', relevance: 0.15, factor: f },
      ...huffpost.map((h, i) => ({ name: `huffpost ${i}`, relevance: h.relevance, factor: factorForAge(h.ageDays, 365) })),
    ]);
    // A weak undated passage stays below the stronger dated ones; a middling one lands among them.
    expect(ranked.indexOf('undated weak')).toBeGreaterThan(10);
    expect(ranked.indexOf('undated mid')).toBeGreaterThan(2);
    expect(ranked.indexOf('undated mid')).toBeLessThan(8);
  });

  it('counts only the best REFERENCE_RESULTS dated matches, by decayed score, reranked ones first', () => {
    const fresh = Array.from({ length: REFERENCE_RESULTS }, (_, i) => ({ ageDays: 2 + i, relevance: 0.5 }));
    const old = Array.from({ length: 100 }, () => ({ ageDays: 4000, relevance: 0.9 }));
    expect(referenceAge([...old, ...fresh], 30)).toBe(6.5);
    // Below the reranker's depth (tier 1) comes after every reranked result, whatever its score.
    expect(referenceAge([...old, ...fresh.map((f) => ({ ...f, tier: 1 }))], 30)).toBe(4000);
    expect(referenceAge([], 30)).toBeNull();
  });

  it('is never newer than its time in the archive, and uses that alone when nothing is dated', () => {
    const archived = new Date(now.getTime() - 100 * 86_400_000);
    const withRef = recencyOf({ publishedAt: null, createdAt: archived }, now, 7, 3);
    expect(withRef.assumedAgeDays).toBe(100);
    expect(withRef.factor).toBeCloseTo(factorForAge(100, 7), 12);
    expect(recencyOf({ publishedAt: null, createdAt: archived }, now, 7, null).assumedAgeDays).toBe(100);
    expect(recencyOf({ publishedAt: null, createdAt: archived }, now, null, 3)).toEqual({ factor: 1, basis: 'off', assumedAgeDays: null });
  });
});
