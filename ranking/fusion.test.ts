import { describe, expect, it } from 'vitest';
import { fuseRrf, fuseScores, normalizer, rankHits, singleRun } from './fusion';

const bm25 = [
  { snippetId: 1, score: 10 },
  { snippetId: 2, score: 6 },
  { snippetId: 3, score: 2 },
];
const dense = [
  { snippetId: 3, score: 0.9 },
  { snippetId: 4, score: 0.7 },
  { snippetId: 1, score: 0.5 },
];

describe('rankHits', () => {
  it('sorts best first, keeps the best score of a duplicate, drops non-finite scores', () => {
    expect(
      rankHits([
        { snippetId: 5, score: 1 },
        { snippetId: 6, score: NaN },
        { snippetId: 5, score: 3 },
        { snippetId: 2, score: 3 },
      ]),
    ).toEqual([
      { snippetId: 2, score: 3 },
      { snippetId: 5, score: 3 },
    ]);
  });
});

describe('fuseRrf', () => {
  it('sums w / (k + rank) over the runs (hand-computed, k = 60)', () => {
    const out = fuseRrf(bm25, dense, 60, { bm25Weight: 0.5 });
    const by = new Map(out.map((c) => [c.snippetId, c]));
    expect(by.get(1)!.fused).toBeCloseTo(0.5 / 61 + 0.5 / 63, 12);
    expect(by.get(3)!.fused).toBeCloseTo(0.5 / 63 + 0.5 / 61, 12);
    expect(by.get(2)!.fused).toBeCloseTo(0.5 / 62, 12);
    expect(by.get(4)!.fused).toBeCloseTo(0.5 / 62, 12);
    // 1 and 3 tie (ranks 1+3 each): the smaller id first; then 2 and 4 tie.
    expect(out.map((c) => c.snippetId)).toEqual([1, 3, 2, 4]);
    expect(by.get(4)).toMatchObject({ bm25: null, bm25Rank: null, dense: 0.7, denseRank: 2 });
  });
  it('lets the weight favour one run', () => {
    expect(fuseRrf(bm25, dense, 60, { bm25Weight: 0.9 })[0]!.snippetId).toBe(1);
    expect(fuseRrf(bm25, dense, 60, { bm25Weight: 0.1 })[0]!.snippetId).toBe(3);
  });
  it('fuses an empty run as absent', () => {
    expect(fuseRrf([], dense, 60, { bm25Weight: 0.5 }).map((c) => c.snippetId)).toEqual([3, 4, 1]);
    expect(fuseRrf([], [], 60, { bm25Weight: 0.5 })).toEqual([]);
  });
});

describe('fuseScores', () => {
  it('min-max normalises each run and weights them (hand-computed)', () => {
    const out = fuseScores(bm25, dense, { bm25Weight: 0.75 }, 'minmax');
    const f = new Map(out.map((c) => [c.snippetId, c.fused]));
    // bm25: 10→1, 6→0.5, 2→0; dense: 0.9→1, 0.7→0.5, 0.5→0
    expect(f.get(1)).toBeCloseTo(0.75 * 1 + 0.25 * 0, 12);
    expect(f.get(2)).toBeCloseTo(0.75 * 0.5, 12);
    expect(f.get(3)).toBeCloseTo(0.75 * 0 + 0.25 * 1, 12);
    expect(f.get(4)).toBeCloseTo(0.25 * 0.5, 12);
    expect(out.map((c) => c.snippetId)).toEqual([1, 2, 3, 4]);
  });
  it('max-normalises by the best score', () => {
    const f = new Map(fuseScores(bm25, dense, { bm25Weight: 0.5 }, 'max').map((c) => [c.snippetId, c.fused]));
    expect(f.get(3)).toBeCloseTo(0.5 * 0.2 + 0.5 * 1, 12);
    expect(f.get(1)).toBeCloseTo(0.5 * 1 + 0.5 * (0.5 / 0.9), 12);
  });
  it('weight 1 reproduces the BM25 order, weight 0 the dense order (among retrieved)', () => {
    expect(
      fuseScores(bm25, dense, { bm25Weight: 1 }, 'minmax')
        .slice(0, 3)
        .map((c) => c.snippetId),
    ).toEqual([1, 2, 3]);
    expect(
      fuseScores(bm25, dense, { bm25Weight: 0 }, 'minmax')
        .slice(0, 3)
        .map((c) => c.snippetId),
    ).toEqual([3, 4, 1]);
  });
  it('never produces negative or non-finite relevance', () => {
    const neg = [
      { snippetId: 1, score: -0.2 },
      { snippetId: 2, score: -0.5 },
    ];
    for (const how of ['minmax', 'max'] as const) {
      for (const c of fuseScores(neg, neg, { bm25Weight: 0.5 }, how)) expect(c.fused >= 0 && Number.isFinite(c.fused)).toBe(true);
    }
  });
});

describe('normalizer', () => {
  it('gives full credit when all scores are equal, and 0 for an empty run', () => {
    expect(normalizer([3, 3], 'minmax')(3)).toBe(1);
    expect(normalizer([], 'minmax')(3)).toBe(0);
  });
});

describe('singleRun', () => {
  it('keeps the run order and clamps relevance at 0', () => {
    const out = singleRun(
      [
        { snippetId: 1, score: -0.1 },
        { snippetId: 2, score: 0.4 },
      ],
      'dense',
    );
    expect(out).toEqual([
      { snippetId: 2, bm25: null, bm25Rank: null, dense: 0.4, denseRank: 1, fused: 0.4 },
      { snippetId: 1, bm25: null, bm25Rank: null, dense: -0.1, denseRank: 2, fused: 0 },
    ]);
  });
});
