/**
 * The accelerator's postings in blocks: the form it is served and saved in (bm25/impact.ts builds
 * and merges the flat arrays; this is what they become). Each term's postings are cut into blocks of
 * BLOCK; a block's document gaps and term frequencies are varints (LEB128) in one byte stream, so a
 * posting takes ~2–3 bytes instead of the flat arrays' 8. Beside the bytes, per block and
 * uncompressed: the last document (a reader skips whole blocks without decoding them), the byte
 * offset, and the largest title and text frequencies and smallest length among its documents — from
 * which impact-maxscore.ts bounds any posting's BM25 contribution in the block for any column weights.
 *
 * Pure: arrays in, arrays out.
 */
import type { ImpactArrays } from './impact-types';

/** Postings per block: small enough that a skipped block saves its decoding, large enough that the per-block data stays small. */
export const BLOCK = 128;

export interface ImpactBlocks {
  /** Distinct tokens in FTS5's order. */
  terms: string[];
  /** Posting counts as prefix sums: term t has termStart[t + 1] − termStart[t] postings (its df). */
  termStart: Uint32Array;
  /** Blocks of term t: [termBlock[t], termBlock[t + 1]). */
  termBlock: Uint32Array;
  /** Per block: its last document (index into docIds). */
  blockLast: Uint32Array;
  /** Per block, plus one at the end: its first byte in `bytes`. */
  blockByte: Uint32Array;
  /** Per block: the largest title and text frequency, and the smallest document length, among its postings. */
  blockMaxTf0: Uint16Array;
  blockMaxTf1: Uint16Array;
  blockMinLen: Uint32Array;
  /** Per posting: varint(doc − previous doc − 1), then varint(tf1 · 8 + min(tf0, 7)), then varint(tf0 − 7) when tf0 ≥ 7. */
  bytes: Uint8Array;
  /** Rowids in ascending order, and each row's size in tokens over all columns (as in ImpactArrays). */
  docIds: Int32Array;
  docLen: Uint32Array;
}

/** Documents are counted in 31 bits (Int32Array rowids); the end of a list reads as this. */
export const END_DOC = 0x7fffffff;

const varintBytes = (x: number) => (x < 0x80 ? 1 : x < 0x4000 ? 2 : x < 0x200000 ? 3 : x < 0x10000000 ? 4 : 5);

function putVarint(out: Uint8Array, at: number, x: number): number {
  while (x >= 0x80) {
    out[at++] = (x & 0x7f) | 0x80;
    x >>>= 7;
  }
  out[at++] = x;
  return at;
}

export function postingBytes(gap: number, tf0: number, tf1: number): number {
  return varintBytes(gap) + varintBytes(tf1 * 8 + Math.min(tf0, 7)) + (tf0 >= 7 ? varintBytes(tf0 - 7) : 0);
}

/** Blocks of a term with `df` postings. */
export const blocksOf = (df: number) => Math.ceil(df / BLOCK);

/** The flat arrays in blocks. Two passes: sizes first, so that the byte stream is allocated once. */
export function compressPostings(a: ImpactArrays): ImpactBlocks {
  const nTerms = a.terms.length;
  if (a.docIds.length >= END_DOC) throw new Error('BM25 accelerator: too many rows for 31-bit document numbers');
  const termBlock = new Uint32Array(nTerms + 1);
  let nBytes = 0;
  for (let t = 0; t < nTerms; t++) {
    termBlock[t + 1] = termBlock[t]! + blocksOf(a.termStart[t + 1]! - a.termStart[t]!);
    let prev = -1;
    for (let j = a.termStart[t]!; j < a.termStart[t + 1]!; j++) {
      nBytes += postingBytes(a.postDoc[j]! - prev - 1, a.postTf0[j]!, a.postTf1[j]!);
      prev = a.postDoc[j]!;
    }
  }
  if (nBytes >= 2 ** 32) throw new Error('BM25 accelerator: postings beyond 4 GiB');
  const nBlocks = termBlock[nTerms]!;
  const out: ImpactBlocks = {
    terms: a.terms,
    termStart: a.termStart,
    termBlock,
    ...blockArrays(nBlocks, nBytes),
    docIds: a.docIds,
    docLen: a.docLen,
  };
  let at = 0;
  for (let t = 0; t < nTerms; t++) {
    let prev = -1;
    for (let j = a.termStart[t]!, b = termBlock[t]!; j < a.termStart[t + 1]!; j += BLOCK, b++) {
      out.blockByte[b] = at;
      at = encodeBlock(a, j, Math.min(j + BLOCK, a.termStart[t + 1]!), prev, out, b, at);
      prev = out.blockLast[b]!;
    }
  }
  out.blockByte[nBlocks] = at;
  return out;
}

/** The per-block arrays (blockByte with its end) and the byte stream of `nBlocks` blocks in `nBytes`, zeroed. */
export function blockArrays(nBlocks: number, nBytes: number) {
  return {
    blockLast: new Uint32Array(nBlocks),
    blockByte: new Uint32Array(nBlocks + 1),
    blockMaxTf0: new Uint16Array(nBlocks),
    blockMaxTf1: new Uint16Array(nBlocks),
    blockMinLen: new Uint32Array(nBlocks),
    bytes: new Uint8Array(nBytes),
  };
}

/**
 * Postings [from, to) as block b, whose first gap is from `prev`; returns the next free byte. With
 * `postLen`, each posting's row length is read from it rather than from `docLen` by row: a caller
 * that has the lengths at hand spares a random read of a large array per posting (~30 ns at 1M).
 */
export function encodeBlock(
  a: Pick<ImpactArrays, 'postDoc' | 'postTf0' | 'postTf1' | 'docLen'> & { postLen?: Uint32Array },
  from: number,
  to: number,
  prev: number,
  out: Pick<ImpactBlocks, 'bytes' | 'blockLast' | 'blockMaxTf0' | 'blockMaxTf1' | 'blockMinLen'>,
  b: number,
  at: number,
): number {
  let max0 = 0;
  let max1 = 0;
  let minLen = 0xffffffff;
  for (let j = from; j < to; j++) {
    const d = a.postDoc[j]!;
    const tf0 = a.postTf0[j]!;
    const tf1 = a.postTf1[j]!;
    at = putVarint(out.bytes, at, d - prev - 1);
    at = putVarint(out.bytes, at, tf1 * 8 + Math.min(tf0, 7));
    if (tf0 >= 7) at = putVarint(out.bytes, at, tf0 - 7);
    prev = d;
    if (tf0 > max0) max0 = tf0;
    if (tf1 > max1) max1 = tf1;
    const len = a.postLen !== undefined ? a.postLen[j]! : a.docLen[d]!;
    if (len < minLen) minLen = len;
  }
  out.blockLast[b] = prev;
  out.blockMaxTf0[b] = max0;
  out.blockMaxTf1[b] = max1;
  out.blockMinLen[b] = minLen;
  return at;
}

/**
 * Decodes block b (`count` postings, the first one's gap counted from `prev`) into the outputs from
 * index `o`. The hot loop of every search: plain typed-array reads, no allocation.
 */
export function decodeBlock(
  bl: ImpactBlocks,
  b: number,
  count: number,
  prev: number,
  docs: Int32Array,
  tf0s: Uint16Array,
  tf1s: Uint16Array,
  o: number,
): void {
  const bytes = bl.bytes;
  let p = bl.blockByte[b]!;
  let doc = prev;
  for (let i = o; i < o + count; i++) {
    let x = bytes[p++]!;
    if (x >= 0x80) {
      x &= 0x7f;
      for (let shift = 7, y = 0x80; y >= 0x80; shift += 7) {
        y = bytes[p++]!;
        x += (y & 0x7f) * 2 ** shift;
      }
    }
    doc += x + 1;
    docs[i] = doc;
    let v = bytes[p++]!;
    if (v >= 0x80) {
      v &= 0x7f;
      for (let shift = 7, y = 0x80; y >= 0x80; shift += 7) {
        y = bytes[p++]!;
        v += (y & 0x7f) * 2 ** shift;
      }
    }
    tf1s[i] = v >>> 3;
    let tf0 = v & 7;
    if (tf0 === 7) {
      let e = bytes[p++]!;
      if (e >= 0x80) {
        e &= 0x7f;
        for (let shift = 7, y = 0x80; y >= 0x80; shift += 7) {
          y = bytes[p++]!;
          e += (y & 0x7f) * 2 ** shift;
        }
      }
      tf0 += e;
    }
    tf0s[i] = tf0;
  }
}

/** Postings in block b of term t (every block holds BLOCK but a term's last). */
export function blockCount(bl: ImpactBlocks, t: number, b: number): number {
  return b < bl.termBlock[t + 1]! - 1 ? BLOCK : bl.termStart[t + 1]! - bl.termStart[t]! - (b - bl.termBlock[t]!) * BLOCK;
}

/** The document before block b's first one: its gap is counted from there (−1 for a term's first block). */
export const blockPrev = (bl: ImpactBlocks, t: number, b: number) => (b === bl.termBlock[t] ? -1 : bl.blockLast[b - 1]!);

/** Back to the flat arrays (an incremental update merges those; tests compare them with a full build). */
export function inflatePostings(bl: ImpactBlocks): ImpactArrays {
  const n = bl.termStart[bl.terms.length] ?? 0;
  const postDoc = new Int32Array(n);
  const postTf0 = new Uint16Array(n);
  const postTf1 = new Uint16Array(n);
  for (let t = 0; t < bl.terms.length; t++) {
    for (let b = bl.termBlock[t]!, j = bl.termStart[t]!; b < bl.termBlock[t + 1]!; b++, j += BLOCK)
      decodeBlock(bl, b, blockCount(bl, t, b), blockPrev(bl, t, b), postDoc, postTf0, postTf1, j);
  }
  return {
    terms: bl.terms,
    termStart: bl.termStart,
    postDoc: new Uint32Array(postDoc.buffer),
    postTf0,
    postTf1,
    docIds: bl.docIds,
    docLen: bl.docLen,
  };
}

/** Bytes the blocks hold (postings and per-block data; not the term strings). */
export function blocksBytes(bl: ImpactBlocks): number {
  const arrays = [
    bl.termStart,
    bl.termBlock,
    bl.blockLast,
    bl.blockByte,
    bl.blockMaxTf0,
    bl.blockMaxTf1,
    bl.blockMinLen,
    bl.bytes,
    bl.docIds,
    bl.docLen,
  ];
  return arrays.reduce((n, v) => n + v.byteLength, 0);
}
