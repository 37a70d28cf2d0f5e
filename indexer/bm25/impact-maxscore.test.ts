/**
 * The pruned search against the exhaustive one on made-up postings that reach the edges: empty
 * indexes, rows without tokens, absent and repeated terms, ties, k beyond the matches, zero weights,
 * many windows. (impact-corpus.test.ts does the same on the real corpora.)
 */
import { describe, expect, it } from 'vitest';
import { firstDifference, impactArrays, rng } from '../../testing/impact';
import { ImpactIndex } from './impact';
import { WINDOW } from './impact-maxscore';

const WEIGHTS: [number, number][] = [
  [1.5, 1],
  [1, 1],
  [0, 1],
  [4, 0.25],
  [0, 0],
];

function expectSame(index: ImpactIndex, phrases: string[], ks: number[] = [1, 2, 10, 100, 1000, 100_000], weights = WEIGHTS) {
  for (const w of weights)
    for (const k of ks)
      expect(
        firstDifference(index.search(phrases, k, w), index.searchExhaustive(phrases, k, w)),
        `${phrases.join(' ')} k=${k} w=${w}`,
      ).toBeNull();
}

/** Skewed random postings over `n` rows (with gaps in the rowids), some rows without any token. */
function randomIndex(seed: number, n: number, nTerms: number): { index: ImpactIndex; terms: string[] } {
  const r = rng(seed);
  const rowids = Array.from({ length: n }, (_, i) => 10 + i * 2);
  const postings: Record<string, [number, number, number][]> = {};
  const terms = Array.from({ length: nTerms }, (_, t) => `w${t}`);
  terms.forEach((term, t) => {
    const share = Math.min(0.6, 0.8 / (t + 1));
    postings[term] = rowids
      .filter((id) => id % 97 !== 0 && r() < share)
      .map((id) => [id, r() < 0.15 ? 1 + Math.floor(r() * 3) : 0, r() < 0.9 ? 1 + Math.floor(r() ** 3 * 6) : 0]);
    postings[term] = postings[term].filter(([, a, b]) => a + b > 0);
  });
  return { index: ImpactIndex.fromArrays(impactArrays(rowids, postings)), terms };
}

describe('pruned BM25 top k = exhaustive top k (rows, scores, order)', () => {
  const { index, terms } = randomIndex(5, 3 * WINDOW + 123, 60);

  it('answers random queries of 1 to 40 terms over several windows', () => {
    const r = rng(9);
    for (let q = 0; q < 30; q++) {
      const len = 1 + Math.floor(r() ** 2 * 40);
      expectSame(
        index,
        Array.from({ length: len }, () => terms[Math.floor(r() ** 1.5 * terms.length)]!),
        [1, 10, 500, 5000],
        q % 3 ? WEIGHTS.slice(0, 1) : WEIGHTS,
      );
    }
  });

  it('counts a repeated phrase again, skips absent terms, returns nothing for nothing', () => {
    expectSame(index, ['w0']);
    expectSame(index, ['w59']);
    expectSame(index, ['w3', 'w3', 'w10']);
    expectSame(index, ['absent', 'w7', 'also-absent', 'w7']);
    expect(index.search(['absent'], 10, [1.5, 1])).toEqual([]);
    expect(index.search([], 10, [1.5, 1])).toEqual([]);
    expect(index.search(['w1'], 0, [1.5, 1])).toEqual([]);
  });

  it('returns every match when k exceeds them, and breaks ties by rowid', () => {
    const rowids = Array.from({ length: 2 * WINDOW }, (_, i) => i + 1);
    // The same text in many rows: equal scores across windows.
    const same = impactArrays(rowids, {
      a: rowids.filter((id) => id % 3 === 0).map((id) => [id, 0, 1]),
      b: rowids.filter((id) => id % 5 === 0).map((id) => [id, 1, 1]),
      c: [[7, 0, 2]],
    });
    const tied = ImpactIndex.fromArrays(same);
    expectSame(tied, ['a', 'b']);
    expectSame(tied, ['c', 'a']);
    const all = tied.search(['a', 'b', 'c'], 100_000, [1.5, 1]);
    expect(all.length).toBe(rowids.filter((id) => id % 3 === 0 || id % 5 === 0 || id === 7).length);
    const top = tied.search(['a'], 3, [1.5, 1]);
    expect(top.map((h) => h.snippetId)).toEqual([3, 6, 9]);
  });

  it('holds an index without rows, and rows without tokens', () => {
    expect(ImpactIndex.fromArrays(impactArrays([], {})).search(['a'], 10, [1.5, 1])).toEqual([]);
    const sparse = ImpactIndex.fromArrays(impactArrays([1, 2, 3, 4], { x: [[3, 0, 1]] }));
    expectSame(sparse, ['x']);
    expect(sparse.search(['x'], 10, [1.5, 1]).map((h) => h.snippetId)).toEqual([3]);
  });
});
