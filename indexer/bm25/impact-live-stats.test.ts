import { describe, expect, it } from 'vitest';
import { mulberry32 as rng } from '../../lib/random';
import { compressPostings, inflatePostings } from './impact-blocks';
import { ImpactIndex, mergeImpact } from './impact';
import { LiveImpact } from './impact-live';
import { postings, range, words } from './impact-test-postings';

/**
 * The live statistics of a copy with rows removed since (bm25/impact-live.ts) against a copy built
 * without them: the same rows and the same doubles. The removed rows' share of each term is counted
 * by walking the term's postings or, with fewer removed rows than the term has blocks, by looking each
 * removed row up in its block; both are exercised here.
 */
describe('LiveImpact with rows removed', () => {
  const vocabulary = [...words('w', 30), ...words('rare', 200)];
  const arrays = postings(21, range(1, 6000), vocabulary);
  const copy = new ImpactIndex(compressPostings(arrays));
  const nothingAdded = postings(22, [], ['w0']);
  const queries = [['w0'], ['w0', 'w1', 'w2'], ['w5', 'rare3', 'w0', 'w9'], ['rare10', 'rare11'], ['w1', 'w1', 'w29']];

  it.each([
    ['a few rows (looked up in their blocks for the common terms)', 3],
    ['many rows (the postings walked)', 900],
  ])('scores %s as a copy built without them', (_, nRemoved) => {
    const r = rng(nRemoved);
    const removed = new Uint8Array(arrays.docIds.length);
    while (removed.reduce((a, b) => a + b, 0) < nRemoved) removed[Math.floor(r() * removed.length)] = 1;
    // The common term has more blocks than 3 rows and fewer than 900: each count takes the path the test names.
    const blocksOfW0 = copy.blocks.termBlock[copy.termId('w0') + 1]! - copy.blocks.termBlock[copy.termId('w0')]!;
    expect(blocksOfW0).toBeGreaterThan(3);
    expect(blocksOfW0).toBeLessThan(900);
    const live = new LiveImpact(copy, { fingerprint: 'next', added: nothingAdded, removed });
    const gone = new Set([...copy.blocks.docIds].filter((_, d) => removed[d] === 1));
    const rebuilt = ImpactIndex.fromArrays(mergeImpact(inflatePostings(copy.blocks), gone, nothingAdded)!);
    for (const q of queries) {
      expect(live.search(q, 300, [1.5, 1]), q.join(' ')).toEqual(rebuilt.search(q, 300, [1.5, 1]));
      expect(live.searchExhaustive(q, 300, [1.5, 1])).toEqual(rebuilt.searchExhaustive(q, 300, [1.5, 1]));
    }
  });
});
