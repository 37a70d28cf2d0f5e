/**
 * New rows appended to the accelerator's blocks without rebuilding them. Rows added since a copy
 * have rowids above all of its rows (bm25/impact-live.ts), so they take the row indexes after the
 * copy's and every term's new postings go after its old ones: a term's blocks stay byte for byte
 * but its last, which is encoded again with the new postings after it (and as many blocks more as
 * they fill). At 1M snippets this replaces inflating, merging and compressing all ~70M postings
 * (~11 s of the indexer's update here) with copying the bytes. The result is what
 * `compressPostings(mergeImpact(inflatePostings(blocks), ∅, added))` gives, array for array
 * (bm25/impact-append.test.ts). Pure.
 */
import {
  BLOCK,
  blockArrays,
  blockCount,
  blockPrev,
  blocksOf,
  decodeBlock,
  encodeBlock,
  postingBytes,
  type ImpactBlocks,
} from './impact-blocks';
import { forEachTermOf } from './impact';
import type { ImpactArrays } from './impact-types';

/** One term of the result: its blocks kept from the copy, and its tail encoded again (with the new postings). */
interface TermPlan {
  term: string;
  /** The copy's term id (−1: new) and the added rows' (−1: none of them holds it). */
  t: number;
  u: number;
  /** The copy's blocks kept as they are: [termBlock[t], keepEnd). */
  keepEnd: number;
  tail: Tail | null;
}

/** Postings encoded as blocks of their own, to be copied in after the kept ones. */
type Tail = { postings: number } & ReturnType<typeof blockArrays>;

/** Whether every row of `added` is above the copy's last (then they take the row numbers after the copy's). */
export function addedAbove(bl: ImpactBlocks, added: ImpactArrays): boolean {
  const n = bl.docIds.length;
  return added.docIds.length === 0 || n === 0 || added.docIds[0]! > bl.docIds[n - 1]!;
}

/** The blocks with `added`'s rows after the copy's; null when a row of `added` is not above the copy's last. */
export function appendRows(bl: ImpactBlocks, added: ImpactArrays): ImpactBlocks | null {
  const nBase = bl.docIds.length;
  if (added.docIds.length === 0) return bl;
  if (!addedAbove(bl, added)) return null;
  const docLen = new Uint32Array(nBase + added.docLen.length);
  docLen.set(bl.docLen);
  docLen.set(added.docLen, nBase);
  const plans = planTerms(bl, added, docLen);
  const nBlocks = plans.reduce((n, p) => n + (p.t >= 0 ? p.keepEnd - bl.termBlock[p.t]! : 0) + (p.tail?.blockLast.length ?? 0), 0);
  const nBytes = plans.reduce(
    (n, p) => n + (p.t >= 0 ? bl.blockByte[p.keepEnd]! - bl.blockByte[bl.termBlock[p.t]!]! : 0) + (p.tail?.bytes.length ?? 0),
    0,
  );
  const docIds = new Int32Array(nBase + added.docIds.length);
  docIds.set(bl.docIds);
  docIds.set(added.docIds, nBase);
  const out: ImpactBlocks = {
    terms: plans.map((p) => p.term),
    termStart: new Uint32Array(plans.length + 1),
    termBlock: new Uint32Array(plans.length + 1),
    ...blockArrays(nBlocks, nBytes),
    docIds,
    docLen,
  };
  let b = 0;
  let at = 0;
  plans.forEach((p, i) => {
    let postings = 0;
    if (p.t >= 0) {
      const from = bl.termBlock[p.t]!;
      const kept = p.keepEnd - from;
      out.blockLast.set(bl.blockLast.subarray(from, p.keepEnd), b);
      out.blockMaxTf0.set(bl.blockMaxTf0.subarray(from, p.keepEnd), b);
      out.blockMaxTf1.set(bl.blockMaxTf1.subarray(from, p.keepEnd), b);
      out.blockMinLen.set(bl.blockMinLen.subarray(from, p.keepEnd), b);
      const shift = at - bl.blockByte[from]!;
      for (let k = 0; k < kept; k++) out.blockByte[b + k] = bl.blockByte[from + k]! + shift;
      out.bytes.set(bl.bytes.subarray(bl.blockByte[from]!, bl.blockByte[p.keepEnd]!), at);
      at += bl.blockByte[p.keepEnd]! - bl.blockByte[from]!;
      b += kept;
      // Kept blocks before a tail are full ones; without a tail the term keeps all its postings.
      postings += p.tail ? kept * BLOCK : bl.termStart[p.t + 1]! - bl.termStart[p.t]!;
    }
    if (p.tail) {
      const n = p.tail.blockLast.length;
      out.blockLast.set(p.tail.blockLast, b);
      out.blockMaxTf0.set(p.tail.blockMaxTf0, b);
      out.blockMaxTf1.set(p.tail.blockMaxTf1, b);
      out.blockMinLen.set(p.tail.blockMinLen, b);
      for (let k = 0; k < n; k++) out.blockByte[b + k] = p.tail.blockByte[k]! + at;
      out.bytes.set(p.tail.bytes, at);
      at += p.tail.bytes.length;
      b += n;
      postings += p.tail.postings;
    }
    out.termStart[i + 1] = out.termStart[i]! + postings;
    out.termBlock[i + 1] = b;
  });
  out.blockByte[nBlocks] = at;
  return out;
}

/** The terms of the result in FTS5's order, each with what it keeps and its tail encoded. */
function planTerms(bl: ImpactBlocks, added: ImpactArrays, docLen: Uint32Array): TermPlan[] {
  const plans: TermPlan[] = [];
  forEachTermOf(bl.terms, added.terms, (inCopy, inAdded) => {
    const term = inCopy >= 0 ? bl.terms[inCopy]! : added.terms[inAdded]!;
    if (inAdded < 0) {
      plans.push({ term, t: inCopy, u: -1, keepEnd: bl.termBlock[inCopy + 1]!, tail: null });
      return;
    }
    // The copy's last block is encoded again with the new postings after it.
    const keepEnd = inCopy >= 0 ? bl.termBlock[inCopy + 1]! - 1 : 0;
    plans.push({ term, t: inCopy, u: inAdded, keepEnd, tail: encodeTail(bl, inCopy, added, inAdded, docLen) });
  });
  return plans;
}

/** The copy's last block of term t (none when t < 0) and the added rows' postings of term u, as blocks. */
function encodeTail(bl: ImpactBlocks, t: number, added: ImpactArrays, u: number, docLen: Uint32Array): Tail {
  const nBase = bl.docIds.length;
  const last = t >= 0 ? bl.termBlock[t + 1]! - 1 : -1;
  const fromCopy = t >= 0 ? blockCount(bl, t, last) : 0;
  const n = fromCopy + added.termStart[u + 1]! - added.termStart[u]!;
  const postDoc = new Uint32Array(n);
  const postTf0 = new Uint16Array(n);
  const postTf1 = new Uint16Array(n);
  if (t >= 0) decodeBlock(bl, last, fromCopy, blockPrev(bl, t, last), new Int32Array(postDoc.buffer), postTf0, postTf1, 0);
  for (let j = added.termStart[u]!, i = fromCopy; j < added.termStart[u + 1]!; j++, i++) {
    postDoc[i] = nBase + added.postDoc[j]!;
    postTf0[i] = added.postTf0[j]!;
    postTf1[i] = added.postTf1[j]!;
  }
  const prev = t >= 0 ? blockPrev(bl, t, last) : -1;
  let nBytes = 0;
  for (let i = 0, p = prev; i < n; p = postDoc[i++]!) nBytes += postingBytes(postDoc[i]! - p - 1, postTf0[i]!, postTf1[i]!);
  const nBlocks = blocksOf(n);
  const tail: Tail = { postings: n, ...blockArrays(nBlocks, nBytes) };
  const src = { postDoc, postTf0, postTf1, docLen };
  let at = 0;
  for (let j = 0, b = 0, p = prev; j < n; j += BLOCK, b++) {
    tail.blockByte[b] = at;
    at = encodeBlock(src, j, Math.min(j + BLOCK, n), p, tail, b, at);
    p = tail.blockLast[b]!;
  }
  return tail;
}
