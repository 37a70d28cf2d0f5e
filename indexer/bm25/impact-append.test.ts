import { describe, expect, it } from 'vitest';
import { mulberry32 as rng } from '../../lib/random';
import { appendRows } from './impact-append';
import { BLOCK, compressPostings, inflatePostings, type ImpactBlocks } from './impact-blocks';
import { compareTerms, ImpactBuilder, mergeImpact, type ImpactArrays } from './impact';

/**
 * Postings of rows `ids` as FTS5's instance table lists them (term, row, column), from a skewed draw
 * of `vocabulary` words: some terms in most rows (lists of many blocks), a title word repeated past
 * 7 (the frequency's extension byte), rows without any token.
 */
function postings(seed: number, ids: number[], vocabulary: string[]): ImpactArrays {
  const r = rng(seed);
  const instances: [string, number, number][] = [];
  for (const id of ids) {
    if (r() < 0.03) continue;
    for (let k = 1 + Math.floor(r() * 30); k > 0; k--)
      instances.push([vocabulary[Math.floor(r() ** 3 * vocabulary.length)]!, id, r() < 0.2 ? 0 : 1]);
    if (r() < 0.05) for (let k = 0; k < 9; k++) instances.push([vocabulary[0]!, id, 0]);
  }
  instances.sort((a, b) => compareTerms(a[0], b[0]) || a[1] - b[1] || a[2] - b[2]);
  const builder = new ImpactBuilder(ids);
  for (const [term, id, col] of instances) expect(builder.add(term, id, col)).toBe(true);
  return builder.finish();
}

const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i.toString(36)}`);
const range = (from: number, n: number, step = 1) => Array.from({ length: n }, (_, i) => from + i * step);

/** What a full merge of the flat arrays gives: the reference appendRows must equal. */
function merged(bl: ImpactBlocks, added: ImpactArrays): ImpactBlocks {
  return compressPostings(mergeImpact(inflatePostings(bl), new Set(), added)!);
}

describe('appendRows', () => {
  it('equals a merge of the flat arrays, array for array, for new rows above the copy', () => {
    // Shared words, words only the copy has, words only the new rows have ('é…', after the others in FTS5's order).
    const copy = compressPostings(postings(1, range(1, 3000, 3), [...words('w', 40), ...words('old', 20)]));
    const added = postings(2, range(20_000, 700, 2), [...words('w', 40), ...words('é', 15), 'aa']);
    const out = appendRows(copy, added)!;
    expect(out).toEqual(merged(copy, added));
    // And again on the result, as a second write between two index runs.
    const more = postings(3, range(30_000, 5), ['w0', 'zz']);
    expect(appendRows(out, more)).toEqual(merged(out, more));
  });

  it('starts a new block after a full last block, and leaves the copy as it is when nothing is added', () => {
    const builder = new ImpactBuilder(range(1, BLOCK * 4));
    for (const id of range(1, BLOCK * 4)) builder.add('a', id, 1);
    const copy = compressPostings(builder.finish());
    expect(copy.termStart[1]).toBe(BLOCK * 4);
    const added = postings(5, [BLOCK * 10], ['a']);
    expect(appendRows(copy, added)).toEqual(merged(copy, added));
    expect(appendRows(copy, postings(6, [], ['a']))).toBe(copy);
  });

  it('refuses a row that is not above the copy', () => {
    const copy = compressPostings(postings(7, range(10, 50), ['a', 'b']));
    expect(appendRows(copy, postings(8, [5], ['a']))).toBeNull();
    expect(appendRows(copy, postings(9, [59], ['a']))).toBeNull();
  });
});
