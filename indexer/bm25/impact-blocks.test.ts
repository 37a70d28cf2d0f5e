import { describe, expect, it } from 'vitest';
import { impactArrays as arraysOf, rng } from '../../testing/impact';
import type { ImpactArrays } from './impact';
import { BLOCK, blocksBytes, compressPostings, inflatePostings } from './impact-blocks';

const flat = (a: ImpactArrays) => ({
  terms: a.terms,
  ...Object.fromEntries((['termStart', 'postDoc', 'postTf0', 'postTf1', 'docIds', 'docLen'] as const).map((k) => [k, [...a[k]]])),
});

describe('BM25 accelerator postings in blocks', () => {
  it('round-trips random postings, with gaps and frequencies of every varint length', () => {
    const r = rng(3);
    const n = 40_000;
    const rowids = Array.from({ length: n }, (_, i) => i * 3 + 1);
    const postings: Record<string, [number, number, number][]> = {};
    for (const [t, share] of [
      ['common', 0.6],
      ['mid', 0.05],
      ['rare', 0.001],
    ] as const) {
      postings[t] = rowids.filter(() => r() < share).map((id) => [id, r() < 0.9 ? 0 : 1 + Math.floor(r() * 9), Math.floor(r() * 4)]);
    }
    // Exactly one block, one block and one posting, and gaps of 2, 3 and 4 varint bytes.
    postings.oneblock = rowids.slice(0, BLOCK).map((id) => [id, 0, 1]);
    postings.oneblockplus = rowids.slice(0, BLOCK + 1).map((id) => [id, 1, 0]);
    postings.far = [rowids[0]!, rowids[200]!, rowids[20_000]!, rowids[n - 1]!].map((id) => [id, 0, 1]);
    postings.heavy = [
      [rowids[5]!, 7, 16],
      [rowids[6]!, 300, 2000],
      [rowids[7]!, 0, 40_000],
    ]; // tf0 ≥ 7 takes an extra varint
    const a = arraysOf(rowids, postings);
    const blocks = compressPostings(a);
    expect(flat(inflatePostings(blocks))).toEqual(flat(a));
    expect(blocks.termBlock.at(-1)).toBe(blocks.blockLast.length);
    const heavy = a.terms.indexOf('heavy');
    expect(blocks.blockMaxTf0[blocks.termBlock[heavy]!]).toBe(300);
    expect(blocks.blockMaxTf1[blocks.termBlock[heavy]!]).toBe(40_000);
  });

  it('keeps per block its last row, largest frequencies and shortest row', () => {
    const rowids = Array.from({ length: 3 * BLOCK }, (_, i) => i + 1);
    const postings: Record<string, [number, number, number][]> = {
      a: rowids.map((id, i) => [id, i === BLOCK + 3 ? 2 : 0, i % 5 === 0 ? 3 : 1]),
      b: rowids.filter((id) => id % 7 === 0).map((id) => [id, 0, 1]),
    };
    const a = arraysOf(rowids, postings);
    const bl = compressPostings(a);
    const t = a.terms.indexOf('a');
    for (let b = bl.termBlock[t]!, j = a.termStart[t]!; b < bl.termBlock[t + 1]!; b++, j += BLOCK) {
      const docs = [...a.postDoc.subarray(j, Math.min(j + BLOCK, a.termStart[t + 1]!))];
      expect(bl.blockLast[b]).toBe(docs.at(-1));
      expect(bl.blockMaxTf0[b]).toBe(Math.max(...docs.map((_, i) => a.postTf0[j + i]!)));
      expect(bl.blockMaxTf1[b]).toBe(Math.max(...docs.map((_, i) => a.postTf1[j + i]!)));
      expect(bl.blockMinLen[b]).toBe(Math.min(...docs.map((d) => a.docLen[d]!)));
    }
  });

  it('holds empty indexes, rows without tokens and terms of one posting', () => {
    const none = compressPostings(arraysOf([], {}));
    expect(none.blockLast.length).toBe(0);
    expect(flat(inflatePostings(none))).toEqual(flat(arraysOf([], {})));
    const sparse = arraysOf([5, 9, 12], { only: [[9, 0, 1]] });
    const back = inflatePostings(compressPostings(sparse));
    expect(flat(back)).toEqual(flat(sparse));
    expect([...back.docLen]).toEqual([0, 1, 0]);
  });

  it('takes a fraction of the flat arrays’ 8 bytes a posting', () => {
    const r = rng(11);
    const rowids = Array.from({ length: 20_000 }, (_, i) => i + 1);
    const postings: Record<string, [number, number, number][]> = {};
    for (let t = 0; t < 200; t++) {
      const share = 0.3 / (t + 1); // Zipf-like document frequencies
      postings[`t${String(t).padStart(3, '0')}`] = rowids.filter(() => r() < share).map((id) => [id, r() < 0.1 ? 1 : 0, r() < 0.8 ? 1 : 2]);
    }
    const a = arraysOf(rowids, postings);
    const bl = compressPostings(a);
    const perPosting = bl.bytes.length / a.postDoc.length;
    expect(perPosting).toBeLessThan(3);
    // Postings and per-block data (the per-row arrays are the flat form's too).
    const rowBytes = bl.docIds.byteLength + bl.docLen.byteLength + bl.termStart.byteLength;
    expect(blocksBytes(bl) - rowBytes).toBeLessThan(a.postDoc.length * 8 * 0.4);
  });
});
