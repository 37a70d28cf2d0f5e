/**
 * Rows removed from the accelerator's blocks (and new rows appended) without going through the flat
 * arrays. A removed row shifts the index of every row after it, but a gap between two postings
 * changes only where a removed row lies between them: most blocks keep their bytes and only their
 * last row moves down (copyTerm says which). The others are streamed a block at a time (decoded,
 * filtered, renumbered, cut into blocks of BLOCK again), so nothing is allocated per term. At 1M
 * snippets this replaces inflating all postings into flat arrays, merging and compressing them
 * (`updateImpact`, ~17 s here).
 * The result is what `compressPostings(mergeImpact(inflatePostings(blocks), removed, added))` gives,
 * array for array (bm25/impact-rewrite.test.ts). Pure.
 */
import { addedAbove, appendRows } from './impact-append';
import { BLOCK, blockArrays, blockCount, blockPrev, decodeBlock, encodeBlock, postingBytes, type ImpactBlocks } from './impact-blocks';
import { forEachTermOf } from './impact';
import type { ImpactArrays } from './impact-types';

/**
 * The blocks less the rows `removed` marks (per row index; null: none) and with `added`'s rows after
 * the rest; null when a row of `added` is not above the copy's last.
 */
export function rewriteRows(bl: ImpactBlocks, removed: Uint8Array | null, added: ImpactArrays): ImpactBlocks | null {
  if (!removed || !removed.includes(1)) return appendRows(bl, added);
  if (!addedAbove(bl, added)) return null;
  const rows = renumber(bl, removed, added);
  const out = new Output(bl, added, rows.docLen.length);
  const stream = new Stream(rows.docLen);
  forEachTermOf(bl.terms, added.terms, (inCopy, inAdded) => {
    out.beginTerm();
    stream.begin();
    if (inCopy >= 0) copyTerm(bl, inCopy, inAdded >= 0, rows, stream, out);
    if (inAdded >= 0) stream.addPostings(added, inAdded, rows.nLive, out);
    stream.flush(out);
    out.endTerm(inCopy >= 0 ? bl.terms[inCopy]! : added.terms[inAdded]!);
  });
  return out.finish(rows);
}

/**
 * Term t's blocks into the result. A block keeps its bytes when the blocks before it were cut where
 * they were (no posting of the term lost so far) and no removed row lies between the row its gaps
 * start from and its last: its gaps are then the same under the new numbering, and only its last
 * row moves down. The others are decoded and go through the stream. A term with added postings
 * always encodes its last block again (as appendRows does), so that they fill it first.
 */
function copyTerm(bl: ImpactBlocks, t: number, hasAdded: boolean, rows: Rows, stream: Stream, out: Output): void {
  const { map, goneBelow } = rows;
  const end = bl.termBlock[t + 1]!;
  for (let b = bl.termBlock[t]!; b < end; b++) {
    const prev = blockPrev(bl, t, b);
    const last = bl.blockLast[b]!;
    const samePrev = prev < 0 ? stream.isAt(-1) : map[2 * prev]! >= 0 && stream.isAt(map[2 * prev]!);
    if (samePrev && goneBelow[last + 1] === goneBelow[prev + 1] && (b < end - 1 || !hasAdded)) {
      out.keepBlock(b, blockCount(bl, t, b), goneBelow[last]!);
      stream.movedTo(map[2 * last]!);
    } else stream.copyBlock(bl, t, b, map, out);
  }
}

interface Rows {
  /**
   * Per row d of the copy: its new index at 2d (−1 when it is removed) and its length at 2d + 1. Side
   * by side, as the stream reads both for each posting: one random read of memory instead of two.
   */
  map: Int32Array;
  /** Per row index x of the copy (and one past the last): how many rows below x are removed. */
  goneBelow: Int32Array;
  nLive: number;
  docIds: Int32Array;
  docLen: Uint32Array;
}

/** The rows that stay, renumbered: the copy's less the removed ones, then the added ones. */
function renumber(bl: ImpactBlocks, removed: Uint8Array, added: ImpactArrays): Rows {
  const nBase = bl.docIds.length;
  const map = new Int32Array(2 * nBase);
  const goneBelow = new Int32Array(nBase + 1);
  let nLive = 0;
  for (let d = 0; d < nBase; d++) {
    map[2 * d] = removed[d] === 1 ? -1 : nLive++;
    map[2 * d + 1] = bl.docLen[d]!;
    goneBelow[d + 1] = d + 1 - nLive;
  }
  const docIds = new Int32Array(nLive + added.docIds.length);
  const docLen = new Uint32Array(nLive + added.docIds.length);
  for (let d = 0; d < nBase; d++) {
    const to = map[2 * d]!;
    if (to < 0) continue;
    docIds[to] = bl.docIds[d]!;
    docLen[to] = bl.docLen[d]!;
  }
  docIds.set(added.docIds, nLive);
  docLen.set(added.docLen, nLive);
  return { map, goneBelow, nLive, docIds, docLen };
}

/**
 * The result's arrays, sized for the most they can hold: renumbering only shortens gaps and a
 * removed posting takes its bytes with it, so the copy's bytes plus the added postings' at the
 * longest gap bound the stream; trimmed to what was written at the end.
 */
class Output {
  readonly arrays: ReturnType<typeof blockArrays>;
  terms: string[] = [];
  termStart: number[] = [0];
  termBlock: number[] = [0];
  nBlocks = 0;
  at = 0;
  private postings = 0;
  private termBlocks = 0;

  constructor(
    private readonly bl: ImpactBlocks,
    added: ImpactArrays,
    nRows: number,
  ) {
    let addedBytes = 0;
    for (let j = 0; j < added.postDoc.length; j++) addedBytes += postingBytes(nRows, added.postTf0[j]!, added.postTf1[j]!);
    // Each term may start one block more than its copy and added postings fill.
    const maxBlocks = bl.blockLast.length + Math.ceil(added.postDoc.length / BLOCK) + added.terms.length;
    this.arrays = blockArrays(maxBlocks, bl.bytes.length + addedBytes);
  }

  beginTerm(): void {
    this.postings = 0;
    this.termBlocks = 0;
  }

  /** Block b of the copy (`count` postings) as it is, its last row `shift` rows lower. */
  keepBlock(b: number, count: number, shift: number): void {
    const { bl, arrays: o } = this;
    const k = this.nBlocks++;
    o.blockLast[k] = bl.blockLast[b]! - shift;
    o.blockMaxTf0[k] = bl.blockMaxTf0[b]!;
    o.blockMaxTf1[k] = bl.blockMaxTf1[b]!;
    o.blockMinLen[k] = bl.blockMinLen[b]!;
    o.blockByte[k] = this.at;
    const bytes = bl.bytes.subarray(bl.blockByte[b]!, bl.blockByte[b + 1]!);
    o.bytes.set(bytes, this.at);
    this.at += bytes.length;
    this.postings += count;
    this.termBlocks++;
  }

  /** Postings [0, n) of the stream's buffers as a new block after `prev`. */
  encode(src: Parameters<typeof encodeBlock>[0], n: number, prev: number): void {
    const k = this.nBlocks++;
    this.arrays.blockByte[k] = this.at;
    this.at = encodeBlock(src, 0, n, prev, this.arrays, k, this.at);
    this.postings += n;
    this.termBlocks++;
  }

  /** A term that kept no posting is left out, as the merge of the flat arrays leaves it out. */
  endTerm(term: string): void {
    if (this.postings === 0) return;
    this.terms.push(term);
    this.termStart.push(this.termStart[this.termStart.length - 1]! + this.postings);
    this.termBlock.push(this.nBlocks);
  }

  finish(rows: { docIds: Int32Array; docLen: Uint32Array }): ImpactBlocks {
    const o = this.arrays;
    const n = this.nBlocks;
    o.blockByte[n] = this.at;
    return {
      terms: this.terms,
      termStart: Uint32Array.from(this.termStart),
      termBlock: Uint32Array.from(this.termBlock),
      blockLast: o.blockLast.slice(0, n),
      blockByte: o.blockByte.slice(0, n + 1),
      blockMaxTf0: o.blockMaxTf0.slice(0, n),
      blockMaxTf1: o.blockMaxTf1.slice(0, n),
      blockMinLen: o.blockMinLen.slice(0, n),
      // A view, not a copy: the stream is the largest array (~170 MB at 1M).
      bytes: o.bytes.subarray(0, this.at),
      docIds: rows.docIds,
      docLen: rows.docLen,
    };
  }
}

/** One term's postings on their way to blocks: a block's worth is held at a time. */
class Stream {
  private readonly postDoc = new Uint32Array(BLOCK);
  private readonly postTf0 = new Uint16Array(BLOCK);
  private readonly postTf1 = new Uint16Array(BLOCK);
  private readonly postLen = new Uint32Array(BLOCK);
  private readonly docs = new Int32Array(BLOCK);
  private readonly tf0 = new Uint16Array(BLOCK);
  private readonly tf1 = new Uint16Array(BLOCK);
  private n = 0;
  /** The last document of the block before the pending postings (their first gap counts from it). */
  private prev = -1;

  private readonly src: Parameters<typeof encodeBlock>[0];

  constructor(docLen: Uint32Array) {
    this.src = { postDoc: this.postDoc, postTf0: this.postTf0, postTf1: this.postTf1, docLen, postLen: this.postLen };
  }

  begin(): void {
    this.n = 0;
    this.prev = -1;
  }

  /** Whether nothing is pending and the last posting out is row d (the new index). */
  isAt(d: number): boolean {
    return this.n === 0 && this.prev === d;
  }

  /** A block kept as it was went out, ending at row d (the new index). */
  movedTo(d: number): void {
    this.prev = d;
  }

  /** Block b of the copy's term t: its postings whose rows stay, under their new indexes (Rows.map). */
  copyBlock(bl: ImpactBlocks, t: number, b: number, map: Int32Array, out: Output): void {
    const count = blockCount(bl, t, b);
    decodeBlock(bl, b, count, blockPrev(bl, t, b), this.docs, this.tf0, this.tf1, 0);
    for (let i = 0; i < count; i++) {
      const at = 2 * this.docs[i]!;
      const d = map[at]!;
      if (d >= 0) this.push(d, map[at + 1]!, this.tf0[i]!, this.tf1[i]!, out);
    }
  }

  /** Term u's postings among the added rows, which follow the `nLive` rows kept. */
  addPostings(added: ImpactArrays, u: number, nLive: number, out: Output): void {
    for (let j = added.termStart[u]!; j < added.termStart[u + 1]!; j++) {
      const d = added.postDoc[j]!;
      this.push(nLive + d, added.docLen[d]!, added.postTf0[j]!, added.postTf1[j]!, out);
    }
  }

  /** What is pending, as the term's last block. */
  flush(out: Output): void {
    if (this.n > 0) out.encode(this.src, this.n, this.prev);
    this.n = 0;
  }

  private push(d: number, len: number, tf0: number, tf1: number, out: Output): void {
    this.postLen[this.n] = len;
    this.postDoc[this.n] = d;
    this.postTf0[this.n] = tf0;
    this.postTf1[this.n++] = tf1;
    if (this.n < BLOCK) return;
    // Blocks are cut every BLOCK postings from the term's first, as compressPostings cuts them.
    out.encode(this.src, BLOCK, this.prev);
    this.prev = this.postDoc[BLOCK - 1]!;
    this.n = 0;
  }
}
