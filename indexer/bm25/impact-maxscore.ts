/**
 * Safe dynamic pruning for the accelerator: MaxScore (Turtle & Flood 1995) over windows of rows with
 * per-block upper bounds, as Lucene's MaxScoreBulkScorer runs it. It returns the exhaustive scorer's
 * top k exactly — the same rows, the same doubles, the same order among equal scores — while scoring
 * only the rows that can still enter the top k.
 *
 * Per window of WINDOW rows: each query term's bound is the largest bound of its blocks that overlap
 * the window (bm25/impact-blocks.ts keeps, per block, what bounds any posting's contribution). Sorted
 * by bound, the terms whose bounds together cannot beat the current k-th score are "non-essential":
 * a row that holds none of the others cannot enter. So:
 * - a window where no row can enter is skipped without decoding anything;
 * - the essential terms' postings in the window are scored term at a time into the window's
 *   accumulators (tight loops over decoded blocks), which gives the candidates;
 * - each candidate probes the non-essential lists, strongest first (skipping whole blocks by their
 *   last row, and refusing a block by its own bound), until what it has plus what it could still get
 *   cannot beat the k-th score.
 * Bounds are compared with a margin (SLACK, far above the rounding of a sum of a few hundred terms
 * in another order), so pruning never drops a row the exhaustive scorer keeps. A surviving
 * candidate's score is summed in the query's phrase order from the contributions it was given, as
 * the exhaustive scorer sums it. Rows are visited in rowid order, so a candidate that only ties the
 * k-th score does not enter (the exhaustive order puts the lower rowid first).
 *
 * The scratch arrays belong to the instance and are reused (a search is synchronous); nothing is
 * allocated per posting.
 */
import { BLOCK, blockCount, blockPrev, decodeBlock, type ImpactBlocks } from './impact-blocks';
import { Heap, type TopHits } from './impact-heap';

/** BM25's constants, as FTS5's bm25() has them. */
export const K1 = 1.2;
export const B = 0.75;
const KP1 = K1 + 1.0;
/** Relative margin on every pruning comparison: bounds are sums in another order than the score's. */
const SLACK = 1e-9;
/** Rows per window: bounds per window are tight enough to skip most of them, and the scratch stays small. */
export const WINDOW = 4096;

/** What both scorers share: the postings and the per-document normalisation (bm25/impact.ts). */
export interface Bm25Model {
  readonly blocks: ImpactBlocks;
  readonly nRow: number;
  readonly avgdl: number;
  /** k1 · (1 − b + b · |D| / avgdl) per document. */
  readonly norm: Float64Array;
  /** Per document: 1 when it is no longer in the index (bm25/impact-live.ts); null when every one is. */
  readonly removed: Uint8Array | null;
  /** Term t's idf as FTS5 computes it over the index it answers for (never below 1e-6). */
  termIdf(t: number): number;
  /** Repeated sums of the title weight (FTS5 adds a column's weight once per occurrence). */
  titleSums(w0: number): Float64Array;
}

/** Per-term state, one slot per distinct query term, in typed arrays (grown, never shrunk). */
class Slots {
  size = 0;
  term = new Int32Array(0);
  mult = new Int32Array(0);
  idf = new Float64Array(0);
  /** The term's bound in the current window (times its multiplicity). */
  wub = new Float64Array(0);
  blk = new Int32Array(0);
  blkEnd = new Int32Array(0);
  /** The block decoded into the slot's buffer (−1: none), and the cursor in it. */
  decoded = new Int32Array(0);
  pos = new Int32Array(0);
  cnt = new Int32Array(0);
  /** Block bounds of slot s start at boundAt[s] (indexed by block − the term's first block). */
  boundAt = new Int32Array(0);
  ord = new Int32Array(0);
  prefix = new Float64Array(0);
  bufDoc = new Int32Array(0);
  bufTf0 = new Uint16Array(0);
  bufTf1 = new Uint16Array(0);
  /** Contribution of slot s to the window's row i at [s · WINDOW + i], valid where stamp is the window's. */
  contrib = new Float64Array(0);
  stamp = new Int32Array(0);
  bound = new Float64Array(0);

  ensure(n: number, nBounds: number): void {
    if (this.size < n) {
      const m = Math.max(n, 2 * this.size, 16);
      this.size = m;
      this.term = new Int32Array(m);
      this.mult = new Int32Array(m);
      this.idf = new Float64Array(m);
      this.wub = new Float64Array(m);
      this.blk = new Int32Array(m);
      this.blkEnd = new Int32Array(m);
      this.decoded = new Int32Array(m);
      this.pos = new Int32Array(m);
      this.cnt = new Int32Array(m);
      this.boundAt = new Int32Array(m);
      this.ord = new Int32Array(m);
      this.prefix = new Float64Array(m);
      this.bufDoc = new Int32Array(m * BLOCK);
      this.bufTf0 = new Uint16Array(m * BLOCK);
      this.bufTf1 = new Uint16Array(m * BLOCK);
      this.contrib = new Float64Array(m * WINDOW);
      this.stamp = new Int32Array(m * WINDOW);
    }
    if (this.bound.length < nBounds) this.bound = new Float64Array(Math.max(nBounds, 2 * this.bound.length));
  }
}

export class MaxScoreSearch {
  private readonly s = new Slots();
  private readonly acc = new Float64Array(WINDOW);
  private readonly bits = new Int32Array(WINDOW / 32);
  private sum0: Float64Array = new Float64Array(0);
  private w0 = 1;
  private w1 = 1;
  private phraseSlot = new Int32Array(0);
  private nPhrase = 0;
  private n = 0;
  /** Stamps contributions with the window they belong to (never reset between searches, so nothing is cleared). */
  private window = 0;
  private lo = 0;
  private theta = -Infinity;
  /** The k-th score less the margin: a bound at or below it cannot enter. */
  private thetaS = -Infinity;

  constructor(private readonly m: Bm25Model) {}

  /**
   * The top k for query terms given as term ids in phrase order (−1: not in the index), scored like
   * bm25(w0, w1); the heap's entries, unordered.
   */
  search(phraseTerms: readonly number[], k: number, weights: readonly [number, number]): TopHits {
    const heap = new Heap(Math.max(0, Math.min(k, this.m.nRow)));
    if (heap.cap === 0 || !this.setup(phraseTerms, weights)) return heap;
    this.theta = this.thetaS = -Infinity;
    for (let lo = 0; lo < this.m.nRow; lo += WINDOW) {
      const hi = Math.min(lo + WINDOW, this.m.nRow);
      const firstEss = this.partition(lo, hi);
      if (firstEss < 0) continue;
      this.nextWindow(lo);
      // Strongest first: a row a weaker list is the first to reach can get only that list's contribution and the bounds below it.
      for (let i = this.n - 1; i >= firstEss; i--) this.scoreWindow(this.s.ord[i]!, hi, this.thetaS - (i > 0 ? this.s.prefix[i - 1]! : 0));
      this.candidates(hi - lo, firstEss, heap);
    }
    return heap;
  }

  /** Slots for the distinct terms, their block bounds, cursors before their first blocks; false when no term is in the index. */
  private setup(phraseTerms: readonly number[], weights: readonly [number, number]): boolean {
    const { s, m } = this;
    const bl = m.blocks;
    if (this.phraseSlot.length < phraseTerms.length) this.phraseSlot = new Int32Array(phraseTerms.length * 2);
    this.nPhrase = phraseTerms.length;
    const slotOf = new Map<number, number>();
    let nBounds = 0;
    for (const t of phraseTerms) {
      if (t < 0 || slotOf.has(t)) continue;
      slotOf.set(t, slotOf.size);
      nBounds += bl.termBlock[t + 1]! - bl.termBlock[t]!;
    }
    this.n = slotOf.size;
    if (this.n === 0) return false;
    s.ensure(this.n, nBounds);
    s.mult.fill(0, 0, this.n);
    phraseTerms.forEach((t, j) => {
      const slot = t < 0 ? -1 : slotOf.get(t)!;
      this.phraseSlot[j] = slot;
      if (slot >= 0) s.mult[slot]! += 1;
    });
    this.sum0 = m.titleSums(weights[0]);
    this.w0 = weights[0];
    this.w1 = weights[1];
    let at = 0;
    for (const [t, slot] of slotOf) {
      s.term[slot] = t;
      s.idf[slot] = m.termIdf(t);
      s.boundAt[slot] = at - bl.termBlock[t]!;
      at = this.blockBounds(slot, t, weights, at);
      s.blk[slot] = bl.termBlock[t]!;
      s.blkEnd[slot] = bl.termBlock[t + 1]!;
      s.decoded[slot] = -1;
    }
    return true;
  }

  /** Bounds of every block of term t into the scratch from `at`; returns the next free place. */
  private blockBounds(slot: number, t: number, [w0, w1]: readonly [number, number], at: number): number {
    const { s, m } = this;
    const bl = m.blocks;
    const idf = s.idf[slot]!;
    for (let b = bl.termBlock[t]!; b < bl.termBlock[t + 1]!; b++) {
      // Contributions grow with the frequencies and shrink with the length (its norm).
      const f = w0 * bl.blockMaxTf0[b]! + w1 * bl.blockMaxTf1[b]!;
      const norm = K1 * (1 - B + (B * bl.blockMinLen[b]!) / m.avgdl);
      s.bound[at++] = idf * ((f * KP1) / (f + norm));
    }
    return at;
  }

  /**
   * Each term's bound in [lo, hi), the terms sorted by it, and the first essential one (−1: no row
   * of the window can enter).
   */
  private partition(lo: number, hi: number): number {
    const { s } = this;
    const n = this.n;
    for (let t = 0; t < n; t++) s.wub[t] = this.windowBound(t, lo, hi) * s.mult[t]!;
    // Insertion sort: a few dozen terms at most, nearly in order from one window to the next.
    for (let i = 0; i < n; i++) s.ord[i] = i;
    for (let i = 1; i < n; i++) {
      const t = s.ord[i]!;
      let j = i - 1;
      for (; j >= 0 && s.wub[s.ord[j]!]! > s.wub[t]!; j--) s.ord[j + 1] = s.ord[j]!;
      s.ord[j + 1] = t;
    }
    let sum = 0;
    let first = -1;
    for (let i = 0; i < n; i++) {
      sum += s.wub[s.ord[i]!]!;
      s.prefix[i] = sum;
      if (first < 0 && sum > this.thetaS) first = i;
    }
    return first;
  }

  /** The largest bound among slot t's blocks that may hold rows of [lo, hi); 0 when none does. */
  private windowBound(t: number, lo: number, hi: number): number {
    if (!this.seekBlock(t, lo)) return 0;
    const { s } = this;
    const last = this.m.blocks.blockLast;
    const end = s.blkEnd[t]!;
    const at = s.boundAt[t]!;
    let b = s.blk[t]!;
    let max = s.bound[at + b]!;
    // Block b + 1 starts after block b's last row: it may hold rows of the window while that is before hi − 1.
    for (b++; b < end && last[b - 1]! < hi - 1; b++) if (s.bound[at + b]! > max) max = s.bound[at + b]!;
    return max;
  }

  private nextWindow(lo: number): void {
    this.lo = lo;
    if (++this.window === 0x7fffffff) {
      this.s.stamp.fill(0);
      this.window = 1;
    }
  }

  /** Scores slot t's postings in [lo, hi) into the window's accumulators; leaves its cursor at the first one ≥ hi. */
  private scoreWindow(t: number, hi: number, newMin: number): void {
    const { s, acc, bits } = this;
    const lo = this.lo;
    if (!this.seekBlock(t, lo)) return;
    const { bufDoc, bufTf0, bufTf1, contrib, stamp } = s;
    const last = this.m.blocks.blockLast;
    const norm = this.m.norm;
    const sum0 = this.sum0;
    const w1 = this.w1;
    const idf = s.idf[t]!;
    const mult = s.mult[t]!;
    const base = t * BLOCK;
    const cell = t * WINDOW - lo;
    const window = this.window;
    for (;;) {
      if (s.decoded[t] !== s.blk[t]) this.load(t);
      let p = base + s.pos[t]!;
      const end = base + s.cnt[t]!;
      while (p < end && bufDoc[p]! < lo) p++;
      for (; p < end; p++) {
        const d = bufDoc[p]!;
        if (d >= hi) break;
        let f = sum0[bufTf0[p]!]!;
        for (let r = bufTf1[p]!; r > 0; r--) f += w1;
        const c = idf * ((f * KP1) / (f + norm[d]!));
        const i = d - lo;
        const word = bits[i >> 5]!;
        const bit = 1 << (i & 31);
        if ((word & bit) === 0) {
          if (c * mult <= newMin) continue; // a new row this weak cannot enter
          bits[i >> 5] = word | bit;
        }
        contrib[cell + d] = c;
        stamp[cell + d] = window;
        acc[i] = acc[i]! + c * mult;
      }
      s.pos[t] = p - base;
      if (p < end) return;
      // The block is used up: go on while the next one may start inside the window.
      const b = ++s.blk[t]!;
      if (b >= s.blkEnd[t]! || last[b - 1]! >= hi - 1) return;
    }
  }

  /** The window's candidates in row order: probed, scored exactly when they may enter, offered to the heap. */
  private candidates(width: number, firstEss: number, heap: Heap): void {
    const { acc, bits } = this;
    const removed = this.m.removed;
    const nonEssential = firstEss > 0 ? this.s.prefix[firstEss - 1]! : 0;
    for (let w = 0; w < (width + 31) >> 5; w++) {
      let word = bits[w]!;
      bits[w] = 0;
      while (word !== 0) {
        const low = word & -word;
        word ^= low;
        const i = (w << 5) + 31 - Math.clz32(low);
        const partial = acc[i]!;
        acc[i] = 0;
        if (removed !== null && removed[this.lo + i] === 1) continue;
        // Most candidates stop here: what they have and all the non-essential lists could give is not enough.
        if (partial + nonEssential <= this.thetaS || !this.probe(i, firstEss, partial)) continue;
        const score = this.exactScore(i);
        if (heap.full && !(score > this.theta)) continue;
        heap.push(score, this.lo + i);
        if (!heap.full) continue;
        this.theta = heap.minScore;
        this.thetaS = this.theta / (1 + SLACK);
      }
    }
  }

  /**
   * Probes the non-essential lists (slots ord[0 … firstEss)) for the window's row i, strongest first;
   * false as soon as what the row has plus what it could still get cannot beat the k-th score.
   */
  private probe(i: number, firstEss: number, partial: number): boolean {
    const { s } = this;
    const d = this.lo + i;
    for (let j = firstEss - 1; j >= 0; j--) {
      if (partial + s.prefix[j]! <= this.thetaS) return false;
      const t = s.ord[j]!;
      if (!this.seekBlock(t, d)) continue;
      const rest = j > 0 ? s.prefix[j - 1]! : 0;
      if (partial + this.docBound(t, d) * s.mult[t]! + rest <= this.thetaS) return false;
      if (this.seekDoc(t, d)) partial += this.take(t, i) * s.mult[t]!;
    }
    // Everything is added now (in another order than the exact sum: hence the margin).
    return partial > this.thetaS;
  }

  /** A bound of slot t's contribution to row d from its current block: the block's largest frequencies at d's own length. */
  private docBound(t: number, d: number): number {
    const bl = this.m.blocks;
    const b = this.s.blk[t]!;
    const f = this.w0 * bl.blockMaxTf0[b]! + this.w1 * bl.blockMaxTf1[b]!;
    return this.s.idf[t]! * ((f * KP1) / (f + this.m.norm[d]!));
  }

  /** Decodes the slot's current block and puts its cursor on the block's first posting. */
  private load(t: number): void {
    const { s } = this;
    const bl = this.m.blocks;
    const b = s.blk[t]!;
    const term = s.term[t]!;
    const count = blockCount(bl, term, b);
    decodeBlock(bl, b, count, blockPrev(bl, term, b), s.bufDoc, s.bufTf0, s.bufTf1, t * BLOCK);
    s.decoded[t] = b;
    s.cnt[t] = count;
    s.pos[t] = 0;
  }

  /** Moves slot t to the first block whose last row is ≥ d, without decoding it; false when the list ends before d. */
  private seekBlock(t: number, d: number): boolean {
    const { s } = this;
    const last = this.m.blocks.blockLast;
    const end = s.blkEnd[t]!;
    let b = s.blk[t]!;
    while (b < end && last[b]! < d) b++;
    s.blk[t] = b;
    return b < end;
  }

  /** After seekBlock: decodes the block if needed and moves to the first posting ≥ d; true when it is d. */
  private seekDoc(t: number, d: number): boolean {
    const { s } = this;
    if (s.decoded[t] !== s.blk[t]) this.load(t);
    const base = t * BLOCK;
    let p = s.pos[t]!;
    while (s.bufDoc[base + p]! < d) p++;
    s.pos[t] = p;
    return s.bufDoc[base + p] === d;
  }

  /** The contribution of slot t's current posting to the window's row i, remembered for the exact sum. */
  private take(t: number, i: number): number {
    const { s } = this;
    const o = t * BLOCK + s.pos[t]!;
    let f = this.sum0[s.bufTf0[o]!]!;
    for (let r = s.bufTf1[o]!; r > 0; r--) f += this.w1;
    const c = s.idf[t]! * ((f * KP1) / (f + this.m.norm[this.lo + i]!));
    s.contrib[t * WINDOW + i] = c;
    s.stamp[t * WINDOW + i] = this.window;
    return c;
  }

  /** Row i's score summed in phrase order, as the exhaustive scorer sums it (a repeated phrase counts again). */
  private exactScore(i: number): number {
    const { s } = this;
    let score = 0;
    for (let j = 0; j < this.nPhrase; j++) {
      const t = this.phraseSlot[j]!;
      if (t >= 0 && s.stamp[t * WINDOW + i] === this.window) score += s.contrib[t * WINDOW + i]!;
    }
    return score;
  }
}
