import { describe, expect, it } from 'vitest';
import { evidenceHitAt, mean, mrrAt, ndcgAt, recallAt, round4 } from './metrics';

const rel = new Set(['a', 'c', 'z']);
const ranked = ['a', 'b', 'c', 'd'];

describe('ndcgAt', () => {
  it('matches a hand computation', () => {
    // DCG@10 = 1/log2(2) + 1/log2(4) = 1.5; IDCG over 3 relevant = 1 + 1/log2(3) + 1/log2(4) = 2.1309...
    expect(ndcgAt(ranked, rel, 10)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3) + 0.5), 12);
    expect(ndcgAt(ranked, rel, 10)).toBeCloseTo(0.703918, 6);
  });
  it('cuts at k: the ideal uses min(k, |relevant|) documents', () => {
    // @1: DCG 1, IDCG 1
    expect(ndcgAt(ranked, rel, 1)).toBe(1);
    // @2: DCG 1, IDCG 1 + 1/log2(3)
    expect(ndcgAt(ranked, rel, 2)).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 12);
  });
  it('is 1 for a perfect ranking, 0 with nothing relevant retrieved, and counts a repeated doc once', () => {
    expect(ndcgAt(['c', 'z', 'a'], rel, 10)).toBeCloseTo(1, 12);
    expect(ndcgAt(['x', 'y'], rel, 10)).toBe(0);
    expect(ndcgAt(['a', 'a'], new Set(['a']), 10)).toBe(1);
    expect(ndcgAt(['a'], new Set(), 10)).toBe(0);
  });
});

describe('recallAt and mrrAt', () => {
  it('match hand computations', () => {
    expect(recallAt(ranked, rel, 100)).toBeCloseTo(2 / 3, 12);
    expect(recallAt(ranked, rel, 2)).toBeCloseTo(1 / 3, 12);
    expect(mrrAt(ranked, rel, 10)).toBe(1);
    expect(mrrAt(['x', 'y', 'c'], rel, 10)).toBeCloseTo(1 / 3, 12);
    expect(mrrAt(['x', 'y', 'c'], rel, 2)).toBe(0);
  });
});

describe('evidenceHitAt', () => {
  const evidence = new Map([['d1', new Set([4, 7])]]);
  it('hits when a top-k snippet covers a gold sentence of its document', () => {
    expect(evidenceHitAt([{ doc: 'd1', sentenceStart: 3, sentenceEnd: 8 }], evidence, 10)).toBe(1);
    expect(evidenceHitAt([{ doc: 'd1', sentenceStart: 0, sentenceEnd: 4 }], evidence, 10)).toBe(0); // end is exclusive
    expect(evidenceHitAt([{ doc: 'd2', sentenceStart: 0, sentenceEnd: 9 }], evidence, 10)).toBe(0);
    expect(
      evidenceHitAt(
        [
          { doc: 'x', sentenceStart: 0, sentenceEnd: 1 },
          { doc: 'd1', sentenceStart: 6, sentenceEnd: 9 },
        ],
        evidence,
        1,
      ),
    ).toBe(0);
  });
  it("counts any snippet of a document whose evidence is 'all'", () => {
    expect(evidenceHitAt([{ doc: 'e', sentenceStart: 0, sentenceEnd: 1 }], new Map([['e', 'all' as const]]), 10)).toBe(1);
  });
});

describe('mean and round4', () => {
  it('average, null when empty; four decimals', () => {
    expect(mean([1, 0, 0.5])).toBe(0.5);
    expect(mean([])).toBeNull();
    expect(round4(0.703918)).toBe(0.7039);
    expect(round4(null)).toBeNull();
  });
});
