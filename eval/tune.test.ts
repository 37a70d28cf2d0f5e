import { describe, expect, it } from 'vitest';
import type { EvalQuery } from './datasets';
import { bestOnTrain, crossValidateWeight, docRanking, foldOf, ndcgOf, scoreGrid, settingsGrid, type RawRuns } from './tune';

const q = (id: string, relevant: string[]): EvalQuery => ({
  id,
  text: id,
  split: 'train',
  relevant: new Set(relevant),
  evidence: new Map(),
  label: null,
});
// Snippets 1..6 belong to documents A..C (two snippets each).
const docOf = new Map([
  [1, 'A'],
  [2, 'A'],
  [3, 'B'],
  [4, 'B'],
  [5, 'C'],
  [6, 'C'],
]);

describe('docRanking', () => {
  it('ranks documents by their best snippet', () => {
    const fused = [5, 1, 6, 3, 2].map((snippetId, i) => ({
      snippetId,
      bm25: null,
      bm25Rank: null,
      dense: null,
      denseRank: null,
      fused: 10 - i,
    }));
    expect(docRanking(fused, docOf)).toEqual(['C', 'A', 'B']);
    expect(docRanking(fused, docOf, 2)).toEqual(['C', 'A']);
  });
});

describe('grid search', () => {
  // BM25 finds the relevant document for query 1, dense for query 2: a mix should win on both.
  const train: RawRuns[] = [
    {
      query: q('1', ['A']),
      bm25: [
        { snippetId: 1, score: 9 },
        { snippetId: 3, score: 8 },
      ],
      dense: [
        { snippetId: 3, score: 0.9 },
        { snippetId: 1, score: 0.85 },
        { snippetId: 5, score: 0.1 },
      ],
    },
    {
      query: q('2', ['C']),
      bm25: [
        { snippetId: 3, score: 5 },
        { snippetId: 5, score: 4.9 },
        { snippetId: 6, score: 1 },
      ],
      dense: [
        { snippetId: 5, score: 0.8 },
        { snippetId: 3, score: 0.2 },
      ],
    },
  ];
  it('scores single runs and fusions on the same retrieved hits', () => {
    expect(ndcgOf(train, docOf, { fusion: 'bm25', bm25Weight: 1 })).toBeCloseTo((1 + 1 / Math.log2(3)) / 2, 12);
    expect(ndcgOf(train, docOf, { fusion: 'dense', bm25Weight: 0 })).toBeCloseTo((1 / Math.log2(3) + 1) / 2, 12);
    expect(ndcgOf(train, docOf, { fusion: 'score', normalization: 'minmax', bm25Weight: 0.5 })).toBe(1);
  });
  it('picks the best setting on train and reports dev beside it', () => {
    const scores = scoreGrid(train, train, docOf, settingsGrid(0.25));
    const best = bestOnTrain(scores, (s) => s.fusion === 'score')!;
    expect(best.train).toBe(1);
    expect(best.dev).toBe(1);
    expect(best.bm25Weight).toBe(0.5);
    expect(
      settingsGrid(0.25)
        .filter((s) => s.fusion === 'rrf')
        .map((s) => s.bm25Weight),
    ).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it('cross-validates the score-fusion weight: each fold chosen on the others, the simplest weight when they disagree', () => {
    // Many copies of the two claims under other ids, so that every fold holds both kinds.
    const many = Array.from({ length: 40 }, (_, i) => ({ ...train[i % 2]!, query: { ...train[i % 2]!.query, id: `q${i}` } }));
    const cv = crossValidateWeight(many, docOf, 5, 0.25);
    expect(cv.folds).toHaveLength(5);
    expect(cv.folds.reduce((n, f) => n + f.queries, 0)).toBe(40);
    expect(cv.curve.map((c) => c.bm25Weight)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    // Only equal weights rank both claims' documents first: every fold picks 0.5.
    expect(cv.chosen).toBe(0.5);
    expect(cv.rule).toBe('all 5 folds chose it');
    expect(cv.heldOut.mean).toBe(1);
    expect(foldOf('q1', 5)).toBe(foldOf('q1', 5));
    // Folds that disagree: one claim alone (only BM25 weight ≥ 0.75 serves it) beside its opposite.
    const split = crossValidateWeight([train[0]!, { ...train[1]!, query: { ...train[1]!.query, id: 'x' } }], docOf, 2, 0.25);
    expect(split.curve.find((c) => c.bm25Weight === split.chosen)!.mean).toBeGreaterThanOrEqual(
      Math.max(...split.curve.map((c) => c.mean)) - Math.max(...split.curve.map((c) => c.sd)),
    );
  });
});
