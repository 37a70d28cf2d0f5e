import { describe, expect, it } from 'vitest';
import { mulberry32 as rng } from '../../lib/random';
import { appendRows } from './impact-append';
import { compressPostings, inflatePostings, type ImpactBlocks } from './impact-blocks';
import { ImpactBuilder, mergeImpact, type ImpactArrays } from './impact';
import { rewriteRows } from './impact-rewrite';
import { postings, range, words } from './impact-test-postings';

/** What a full merge of the flat arrays gives: the reference rewriteRows must equal. */
function merged(bl: ImpactBlocks, removed: Uint8Array, added: ImpactArrays): ImpactBlocks {
  const gone = new Set([...bl.docIds].filter((_, d) => removed[d] === 1));
  return compressPostings(mergeImpact(inflatePostings(bl), gone, added)!);
}

/** A mask over `n` rows with the given indexes set. */
function mask(n: number, rows: Iterable<number>): Uint8Array {
  const m = new Uint8Array(n);
  for (const d of rows) m[d] = 1;
  return m;
}

/** The typed arrays as plain ones: a view into a larger buffer compares by its elements. */
const plain = (bl: ImpactBlocks) => Object.fromEntries(Object.entries(bl).map(([k, v]) => [k, Array.from(v as ArrayLike<unknown>)]));

describe('rewriteRows', () => {
  const copy = compressPostings(postings(1, range(1, 3000, 3), [...words('w', 40), ...words('old', 20)]));
  const added = postings(2, range(20_000, 700, 2), [...words('w', 40), ...words('é', 15), 'aa']);
  const n = copy.docIds.length;

  it('equals a merge of the flat arrays, array for array, wherever the removed rows are', () => {
    const r = rng(11);
    const draws: [string, Uint8Array][] = [
      ['the first row', mask(n, [0])],
      ['the last row', mask(n, [n - 1])],
      ['a few early ones', mask(n, [3, 4, 200, 1500])],
      [
        'a tenth at random',
        mask(
          n,
          range(0, n).filter(() => r() < 0.1),
        ),
      ],
      ['a run in the middle', mask(n, range(1000, 400))],
    ];
    for (const [what, removed] of draws) {
      expect(plain(rewriteRows(copy, removed, added)!), what).toEqual(plain(merged(copy, removed, added)));
      const none = postings(3, [], ['w0']);
      expect(plain(rewriteRows(copy, removed, none)!), `${what}, nothing added`).toEqual(plain(merged(copy, removed, none)));
    }
  });

  it('drops a term no row holds any more, and keeps the blocks before the first removed row byte for byte', () => {
    const builder = new ImpactBuilder(range(1, 600));
    // Instances in FTS5's order: by term, then row.
    for (const id of range(1, 600)) expect(builder.add('a', id, 1)).toBe(true);
    expect(builder.add('rare', 550, 0)).toBe(true);
    const bl = compressPostings(builder.finish());
    const removed = mask(600, [549]);
    const out = rewriteRows(bl, removed, postings(4, [], ['a']))!;
    expect(out.terms).toEqual(['a']);
    expect(plain(out)).toEqual(plain(merged(bl, removed, postings(4, [], ['a']))));
    // Row 549 is in term a's fifth block (128 postings a block): the first four stay as they were.
    expect(out.bytes.subarray(0, bl.blockByte[4]!)).toEqual(bl.bytes.subarray(0, bl.blockByte[4]!));
  });

  it('keeps the bytes of a block whose gaps no removed row lies between', () => {
    // 'even' in every other row (indexes 0, 2, …); row 301 removed: one gap of 'even' shrinks, the rest keep their bytes.
    const builder = new ImpactBuilder(range(1, 1200));
    for (const id of range(1, 600, 2)) expect(builder.add('even', id, 1)).toBe(true);
    for (const id of range(1, 1200)) expect(builder.add('every', id, 1)).toBe(true);
    const bl = compressPostings(builder.finish());
    const removed = mask(1200, [301]);
    const none = postings(4, [], ['every']);
    const out = rewriteRows(bl, removed, none)!;
    expect(plain(out)).toEqual(plain(merged(bl, removed, none)));
    // 'even' (term 0): 600 postings in 5 blocks, row 301 in the range of its second (rows 256–510).
    const bytes = (x: ImpactBlocks, b: number) => [...x.bytes.subarray(x.blockByte[b]!, x.blockByte[b + 1]!)];
    expect(bytes(out, 1)).not.toEqual(bytes(bl, 1));
    for (const b of [0, 2, 3, 4]) expect(bytes(out, b)).toEqual(bytes(bl, b));
    expect(out.blockLast[2]).toBe(bl.blockLast[2]! - 1);
  });

  it('removes every row, with and without new ones', () => {
    const out = rewriteRows(copy, mask(n, range(0, n)), postings(5, [], ['w0']))!;
    expect(out.terms).toEqual([]);
    expect(out.docIds.length).toBe(0);
    expect(out.bytes.length).toBe(0);
    const all = mask(n, range(0, n));
    expect(plain(rewriteRows(copy, all, added)!)).toEqual(plain(merged(copy, all, added)));
  });

  it('appends when nothing is removed, and refuses a row that is not above the copy', () => {
    expect(rewriteRows(copy, null, added)).toEqual(appendRows(copy, added));
    expect(rewriteRows(copy, new Uint8Array(n), added)).toEqual(appendRows(copy, added));
    expect(rewriteRows(copy, mask(n, [5]), postings(6, [100], ['w0']))).toBeNull();
  });
});
