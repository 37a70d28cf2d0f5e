/**
 * The accelerator between two index runs. A crawl writes snippets all the time, and each write made
 * the saved copy (bm25/impact.ts) stale until the indexer brought it up to date: every BM25 search
 * in between went to FTS5 itself, 0.7 / 1.7 s (p50 / p95) for a claim at 1M snippets instead of
 * ~15 / 40 ms. Within an epoch rows are immutable and new rows get rowids above every earlier one
 * (AUTOINCREMENT; migration 0009 starts a new epoch on an in-place update), so the live index is the
 * copy less the rows removed since, plus the rows added since. This scores both parts with the live
 * statistics — row count, average length and each term's document frequency, as FTS5's bm25() reads
 * them — so its top k is FTS5's own, the same rows and the same doubles:
 * - the copy through its pruned search, its removed rows masked and its length normalisation
 *   computed again for the live average;
 * - the added rows (a few hundred between two index runs) through the exhaustive scorer;
 * - the two top-k lists merged (an added row's rowid is above every row of the copy, so the merge
 *   keeps FTS5's order among equal scores).
 * Pure: the SQLite side (which rows, their postings) is bm25/impact-store.ts `readLiveDelta`.
 */
import { BLOCK, blockCount, blockPrev, compressPostings, decodeBlock, type ImpactBlocks } from './impact-blocks';
import { ExhaustiveSearch } from './impact-exhaustive';
import { MaxScoreSearch, type Bm25Model } from './impact-maxscore';
import { bm25Idf, lengthNorms, sortHits, type ImpactIndex } from './impact';
import type { ImpactArrays, ImpactHit } from './impact-types';

/** What changed since the copy. */
export interface LiveDelta {
  /** The fingerprint of the live index these describe. */
  fingerprint: string;
  /** Postings of the rows added since the copy (rowids above the copy's), as FTS5 tokenizes them. */
  added: ImpactArrays;
  /** Per row of the copy (by its index), 1 when it was removed since; null when none was. */
  removed: Uint8Array | null;
}

/** One part of the live index, scored with the live statistics. */
class LivePart implements Bm25Model {
  readonly nRow: number;
  readonly norm: Float64Array;

  constructor(
    readonly blocks: ImpactBlocks,
    readonly avgdl: number,
    readonly removed: Uint8Array | null,
    private readonly idfOf: (t: number) => number,
    private readonly base: ImpactIndex,
    reuse?: Float64Array,
  ) {
    this.nRow = blocks.docIds.length;
    this.norm = lengthNorms(blocks.docLen, avgdl, reuse);
  }

  termIdf(t: number): number {
    return this.idfOf(t);
  }

  titleSums(w0: number): Float64Array {
    return this.base.titleSums(w0);
  }
}

export class LiveImpact {
  readonly fingerprint: string;
  /** Rows in the live index, as FTS5 counts them. */
  readonly nRow: number;
  private readonly copy: LivePart;
  private readonly added: LivePart;
  private readonly addedTerms: Map<string, number>;
  private readonly pruned: MaxScoreSearch;
  private readonly copyAll: ExhaustiveSearch;
  private readonly addedAll: ExhaustiveSearch;
  /** Per term of the copy: how many of its rows were removed (counted when a query first needs it). */
  private readonly removedDf = new Map<number, number>();
  /** The copy's removed rows, ascending. */
  private readonly removedRows: Int32Array;
  /** A decoded block while removed rows are counted. */
  private readonly scratch = { docs: new Int32Array(BLOCK), tf: new Uint16Array(BLOCK) };
  private readonly idfs = new Map<number, number>();

  constructor(
    readonly base: ImpactIndex,
    /** What it was built from (the next generation's difference starts from it). */
    readonly delta: LiveDelta,
    /** The generation it replaces, over the same copy: its length norms' array is written over, and it must not answer again. */
    replaces?: LiveImpact | null,
  ) {
    this.fingerprint = delta.fingerprint;
    const { added, removed } = delta;
    const gone: number[] = [];
    let nToken = base.nToken;
    if (removed) {
      for (let d = 0; d < removed.length; d++) {
        if (removed[d] !== 1) continue;
        gone.push(d);
        nToken -= base.blocks.docLen[d]!;
      }
    }
    const nRemoved = gone.length;
    this.removedRows = Int32Array.from(gone);
    for (const len of added.docLen) nToken += len;
    this.nRow = base.nRow - nRemoved + added.docIds.length;
    const avgdl = nToken / this.nRow;
    this.addedTerms = new Map(added.terms.map((t, i) => [t, i]));
    const addedBlocks = compressPostings(added);
    const reuse = replaces?.base === base ? replaces.copy.norm : undefined;
    this.copy = new LivePart(base.blocks, avgdl, nRemoved ? removed : null, (t) => this.idf(base.blocks.terms[t]!, t), base, reuse);
    this.added = new LivePart(addedBlocks, avgdl, null, (t) => this.idf(added.terms[t]!, base.termId(added.terms[t]!)), base);
    this.pruned = new MaxScoreSearch(this.copy);
    this.copyAll = new ExhaustiveSearch(this.copy);
    this.addedAll = new ExhaustiveSearch(this.added);
  }

  /** The top k, as bm25/impact.ts ImpactIndex.search gives it for a copy that is up to date. */
  search(phrases: readonly string[], k: number, weights: readonly [number, number]): ImpactHit[] {
    if (this.nRow === 0 || k < 1) return [];
    const top = this.pruned.search(this.base.termsOf(phrases), k, weights);
    const fromCopy = sortHits(top.docs.subarray(0, top.length), top.scores, this.base.blocks.docIds);
    return merge(fromCopy, this.addedAll.search(this.addedTermsOf(phrases), k, weights), k);
  }

  /** The same top k by scoring every posting (the reference the tests hold `search` to). */
  searchExhaustive(phrases: readonly string[], k: number, weights: readonly [number, number]): ImpactHit[] {
    if (this.nRow === 0 || k < 1) return [];
    const fromCopy = this.copyAll.search(this.base.termsOf(phrases), k, weights);
    return merge(fromCopy, this.addedAll.search(this.addedTermsOf(phrases), k, weights), k);
  }

  private addedTermsOf(phrases: readonly string[]): number[] {
    return phrases.map((p) => this.addedTerms.get(p) ?? -1);
  }

  /** The live idf of a token: its rows in the copy, less those removed, plus those added. */
  private idf(token: string, inCopy: number): number {
    const a = this.addedTerms.get(token);
    const df =
      (inCopy >= 0 ? this.base.df(inCopy) - this.removedOf(inCopy) : 0) +
      (a === undefined ? 0 : this.added.blocks.termStart[a + 1]! - this.added.blocks.termStart[a]!);
    let idf = this.idfs.get(df);
    if (idf === undefined) {
      idf = bm25Idf(this.base.log, this.nRow, df);
      this.idfs.set(df, idf);
    }
    return idf;
  }

  /**
   * Removed rows among term t's rows in the copy, counted once per term: its postings walked, or,
   * when fewer rows were removed than the term has blocks (a common term after a crawler replaced
   * a few articles: thousands of blocks against tens of rows), each removed row looked up in the one
   * block that may hold it.
   */
  private removedOf(t: number): number {
    const removed = this.copy.removed;
    if (!removed) return 0;
    let n = this.removedDf.get(t);
    if (n !== undefined) return n;
    const bl = this.base.blocks;
    const blocks = bl.termBlock[t + 1]! - bl.termBlock[t]!;
    n = this.removedRows.length < blocks ? this.lookUpRemoved(t) : this.walkRemoved(t, removed);
    this.removedDf.set(t, n);
    return n;
  }

  private walkRemoved(t: number, removed: Uint8Array): number {
    const bl = this.base.blocks;
    const { docs, tf } = this.scratch;
    let n = 0;
    for (let b = bl.termBlock[t]!; b < bl.termBlock[t + 1]!; b++) {
      const count = blockCount(bl, t, b);
      decodeBlock(bl, b, count, blockPrev(bl, t, b), docs, tf, tf, 0);
      for (let j = 0; j < count; j++) n += removed[docs[j]!]!;
    }
    return n;
  }

  private lookUpRemoved(t: number): number {
    const bl = this.base.blocks;
    const { docs, tf } = this.scratch;
    const end = bl.termBlock[t + 1]!;
    let n = 0;
    let decoded = -1;
    let count = 0;
    for (const d of this.removedRows) {
      // The first block whose last row is at or after d (the rows ascend, and so do the blocks' last rows).
      let [lo, hi] = [Math.max(bl.termBlock[t]!, decoded), end];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (bl.blockLast[mid]! < d) lo = mid + 1;
        else hi = mid;
      }
      if (lo === end) break;
      if (lo !== decoded) {
        count = blockCount(bl, t, lo);
        decodeBlock(bl, lo, count, blockPrev(bl, t, lo), docs, tf, tf, 0);
        decoded = lo;
      }
      for (let j = 0; j < count && docs[j]! <= d; j++) if (docs[j] === d) n++;
    }
    return n;
  }
}

/** Two top-k lists in FTS5's order merged into one: score descending, rowid ascending among equals. */
function merge(a: ImpactHit[], b: ImpactHit[], k: number): ImpactHit[] {
  if (!b.length) return a;
  return [...a, ...b].sort((x, y) => y.score - x.score || x.snippetId - y.snippetId).slice(0, k);
}
