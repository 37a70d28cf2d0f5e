import { describe, expect, it } from 'vitest';
import { contentWords, decideMatches, rankByWords, stem } from './fact-checks';

const reviews = [
  { id: 1, claim: 'The harbour bridge repairs will cost forty million pounds' },
  { id: 2, claim: 'The island ferry service is being scrapped this winter' },
  { id: 3, claim: 'The town library will close at five during exam season' },
  { id: 4, claim: 'The harbour is closed to fishing boats' },
];

const match = (claim: string, dense?: (number | null)[]) => decideMatches(rankByWords(claim, reviews), dense).map((m) => m.review.id);

describe('matching a claim to published fact-checks', () => {
  it('matches the same claim in other words order and inflection', () => {
    expect(match('Repairs to the harbour bridge would cost 40 million pounds')).toEqual([1]);
    expect(match('Is the island ferry scrapped this winter?')).toEqual([2]);
    expect(match('the harbour bridge repair costs forty million pounds')).toEqual([1]);
  });

  it('does not match a claim that only shares a word or two', () => {
    expect(match('The harbour bridge closed for repairs')).toEqual([]);
    expect(match('Winter storms hit the coast')).toEqual([]);
    // Same subject and season, opposite news: not the claim that was rated.
    expect(match('The island ferry adds winter sailings')).toEqual([]);
    expect(match('')).toEqual([]);
  });

  it('a paraphrase with half the words in common matches only when the sentence vectors agree closely', () => {
    const ranked = rankByWords('The town library shuts at 5pm in exam season', reviews);
    expect(ranked[0]!.review.id).toBe(3);
    expect(decideMatches(ranked).map((m) => m.review.id)).toEqual([]);
    expect(decideMatches(ranked, [0.85]).map((m) => m.review.id)).toEqual([]);
    expect(decideMatches(ranked, [0.93]).map((m) => [m.review.id, m.score])).toEqual([[3, 0.93]]);
    // Same subject, the opposite claim: few words in common, and vectors alone are not enough.
    const opposite = rankByWords('The library will stay open until ten in the evening during exams', reviews);
    expect(
      decideMatches(
        opposite,
        opposite.map(() => 0.95),
      ).map((m) => m.review.id),
    ).toEqual([]);
  });

  it('content words drop stop words and fold simple inflections', () => {
    expect([...contentWords('The repairs are costing millions')]).toEqual(['repair', 'cost', 'million']);
    expect(['close', 'closes', 'closed', 'closing'].map(stem)).toEqual(['clos', 'clos', 'clos', 'clos']);
  });
});
