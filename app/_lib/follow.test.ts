/** "As of" on a followed search: it bounds the publication date there too, as the `to` date. */
import { describe, expect, it } from 'vitest';
import { asOfAsTo, followHref, followKey, worthFollowing } from './follow';

describe('follow: "as of" as the upper bound', () => {
  it('becomes the `to` date when it is the earlier bound, and is dropped', () => {
    expect(asOfAsTo({ q: 'x', asOf: '2024-06-01' })).toEqual({ q: 'x', to: '2024-06-01' });
    expect(asOfAsTo({ q: 'x', asOf: '2024-06-01', to: '2024-09-01' })).toEqual({ q: 'x', to: '2024-06-01' });
    expect(asOfAsTo({ q: 'x', asOf: '2024-06-01', to: '2024-03-01' })).toEqual({ q: 'x', to: '2024-03-01' });
    // The same day: the bound is the same (a bare `to` means the end of its day).
    expect(asOfAsTo({ q: 'x', asOf: '2024-06-01', to: '2024-06-01' })).toEqual({ q: 'x', to: '2024-06-01' });
    // An instant on the as-of day is earlier than the end of that `to` day.
    expect(asOfAsTo({ q: 'x', asOf: '2024-06-01T12:00:00Z', to: '2024-06-01' })).toEqual({ q: 'x', to: '2024-06-01T12:00:00Z' });
    expect(asOfAsTo({ q: 'x', to: '2024-06-01' })).toEqual({ q: 'x', to: '2024-06-01' });
  });

  it('keeps the bound in the follow link and in the follow identity', () => {
    expect(followHref({ q: 'harbour bridge', asOf: '2024-06-01' })).toBe('/api/follow?q=harbour+bridge&to=2024-06-01');
    const key = (q: Parameters<typeof followKey>[0]) => followKey(q).id;
    const base = { q: 'harbour bridge', halfLifeDays: undefined, from: undefined, maxAgeDays: undefined, sources: undefined };
    expect(key({ ...base, asOf: '2024-06-01', to: undefined })).toBe(key({ ...base, asOf: undefined, to: '2024-06-01' }));
    expect(key({ ...base, asOf: '2024-06-01', to: undefined })).not.toBe(key({ ...base, asOf: undefined, to: undefined }));
  });
});

describe('follow: which results become feed entries', () => {
  const r = (title: string, text: string, relevance = 0.5) => ({
    title,
    text,
    scores: { bm25: 1, bm25Rank: 1, dense: 0.9, denseRank: 1, fused: relevance, rerank: null, relevance, recency: 1, final: relevance },
  });
  // The case that set the rule: 1987 earnings reports share "first", "profit" and "report" with a claim about Google.
  it('weighs the words by their rarity among the results: the word that sets the claim apart counts most', () => {
    const terms = ['google', 'made', 'profit', 'first', 'earnings', 'report', 'floating'];
    const results = [
      r('Google shares fall as staff sell', 'In its first earnings report since floating, Google said it made a net profit of $52m.', 1),
      ...Array.from({ length: 8 }, (_, i) =>
        r(`Company ${i} expects profit`, `Company ${i} made a first quarter profit, its earnings report said.`, 0.5),
      ),
    ];
    expect(worthFollowing(results, terms)).toEqual([true, ...Array(8).fill(false)]);
  });
  it('wants two of the words at least, and a relevance not far below the best', () => {
    const terms = ['harbour', 'bridge', 'repairs'];
    const results = [
      r('Harbour bridge to close for repairs', 'The harbour bridge will close for repairs.', 1),
      r('Harbour bridge reopens', 'The harbour bridge reopened after repairs finished early.', 0.5),
      r('Bridge club', 'The bridge club meets on Fridays.', 0.9),
      r('Harbour bridge repairs', 'Harbour bridge repairs: a list of tenders.', 0.2),
      r('Islanders cut off', 'Nothing in common, only a dense neighbour.', 0.9),
    ];
    expect(worthFollowing(results, terms)).toEqual([true, true, false, false, false]);
    expect(worthFollowing(results, [])).toEqual([false, false, false, false, false]);
  });
});
