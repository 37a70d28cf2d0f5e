import { describe, expect, it } from 'vitest';
import { appendRows } from './impact-append';
import { BLOCK, compressPostings, inflatePostings, type ImpactBlocks } from './impact-blocks';
import { ImpactBuilder, mergeImpact, type ImpactArrays } from './impact';
import { postings, range, words } from './impact-test-postings';

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
