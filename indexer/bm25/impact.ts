/**
 * An exact in-memory copy of an FTS5 index's postings, for BM25 top-k without FTS5's per-row cost.
 *
 * FTS5 answers `"a" OR "b" … ORDER BY rank LIMIT k` by calling bm25() on every matching row (a
 * %_docsize lookup and a position-list walk each): at 100k snippets a claim with common words scores
 * tens of thousands of rows (p95 ~74 ms). Here the same postings (document, per-column term
 * frequency) are scored with FTS5's own formula, in FTS5's order of floating-point operations
 * (sqlite/ext/fts5/fts5_aux.c, fts5Bm25Function), so scores are the same doubles and the top k the
 * same rows (ties: lower rowid first).
 *
 * - Built and merged as flat arrays (ImpactBuilder, mergeImpact: what a full build and an
 *   incremental update produce, compared array for array in the tests).
 * - Served and saved in blocks (bm25/impact-blocks.ts: doc gaps and frequencies as varints, ~3× smaller).
 * - Searched with safe dynamic pruning (bm25/impact-maxscore.ts: MaxScore over windows of rows with
 *   per-block bounds), which skips the rows that cannot enter the top k; `searchExhaustive` scores
 *   every posting of every query term and stays as the reference it is tested and benchmarked against.
 *
 * Pure: built from rows, searched from token ids; the SQLite side (reading, fingerprint, file) is
 * bm25/impact-store.ts.
 */

import { blocksBytes, compressPostings, type ImpactBlocks } from './impact-blocks';
import type { ImpactArrays, ImpactHit } from './impact-types';
import { ExhaustiveSearch } from './impact-exhaustive';
import { B, K1, MaxScoreSearch, type Bm25Model } from './impact-maxscore';

export type { ImpactArrays, ImpactHit } from './impact-types';

/**
 * Postings appended in chunks of typed arrays: a 1M-snippet index has ~70M postings, which as JS
 * arrays of numbers took 8 bytes a field and copies while growing (the build's peak RSS); here 8
 * bytes a posting in all, never copied until `finish` joins the chunks.
 */
class PostingChunks {
  private readonly docs: Uint32Array[] = [];
  private readonly tf0: Uint16Array[] = [];
  private readonly tf1: Uint16Array[] = [];
  length = 0;

  /** `bits`: log2 of a chunk's postings (8 MB of chunk at 20; the few hundred rows of a difference need far less). */
  constructor(private readonly bits = 20) {}

  push(doc: number): void {
    const c = this.length >>> this.bits;
    if (c === this.docs.length) {
      this.docs.push(new Uint32Array(1 << this.bits));
      this.tf0.push(new Uint16Array(1 << this.bits));
      this.tf1.push(new Uint16Array(1 << this.bits));
    }
    this.docs[c]![this.length++ & ((1 << this.bits) - 1)] = doc;
  }

  /** One more occurrence in column `col` of the last posting; false at the 16-bit limit. */
  count(col: 0 | 1): boolean {
    const j = this.length - 1;
    const arr = (col === 0 ? this.tf0 : this.tf1)[j >>> this.bits]!;
    const i = j & ((1 << this.bits) - 1);
    if (arr[i]! >= 0xffff) return false;
    arr[i]! += 1;
    return true;
  }

  /**
   * The postings in three arrays of their exact length. Each chunk is let go as soon as it is copied,
   * so that the collector can reclaim it during the copy: holding them all until the end put the
   * chunks and the arrays in memory together (~1.1 GB at 70M postings instead of ~0.6).
   */
  join(): Pick<ImpactArrays, 'postDoc' | 'postTf0' | 'postTf1'> {
    const out = { postDoc: new Uint32Array(this.length), postTf0: new Uint16Array(this.length), postTf1: new Uint16Array(this.length) };
    const size = 1 << this.bits;
    for (let c = 0; c < this.docs.length; c++) {
      const n = Math.min(size, this.length - c * size);
      out.postDoc.set(this.docs[c]!.subarray(0, n), c * size);
      out.postTf0.set(this.tf0[c]!.subarray(0, n), c * size);
      out.postTf1.set(this.tf1[c]!.subarray(0, n), c * size);
      this.docs[c] = new Uint32Array(0);
      this.tf0[c] = this.tf1[c] = new Uint16Array(0);
    }
    this.docs.length = this.tf0.length = this.tf1.length = 0;
    return out;
  }
}

/**
 * Each rowid's index among `sorted`: a table over the rowids' range when they are not much sparser
 * than a quarter (~10 ns a lookup, one per token occurrence of the corpus: a Map's took a third of
 * the build), else a Map.
 */
function rowIndex(sorted: readonly number[]): (rowid: number) => number | undefined {
  const n = sorted.length;
  const [lo, hi] = [sorted[0] ?? 0, sorted[n - 1] ?? -1];
  const span = hi - lo + 1;
  if (n > 0 && span <= 4 * n + 1024 && Number.isSafeInteger(lo)) {
    const table = new Int32Array(span).fill(-1);
    sorted.forEach((id, i) => (table[id - lo] = i));
    return (rowid) => {
      const i = rowid - lo;
      const d = i >= 0 && i < span ? table[i]! : -1;
      return d >= 0 ? d : undefined;
    };
  }
  const map = new Map(sorted.map((id, i) => [id, i]));
  return (rowid) => map.get(rowid);
}

/**
 * Builds the arrays from FTS5's instance rows (fts5vocab 'instance': one row per token occurrence,
 * ordered by term, doc, col). A row's length is its number of instances — what FTS5 stores as its
 * column sizes — and rows without any token still count as rows, as they do for bm25().
 */
export class ImpactBuilder {
  private readonly terms: string[] = [];
  private readonly termSeen = new Set<string>();
  private readonly termStart: number[] = [];
  private readonly postings: PostingChunks;
  private readonly docIndex: (rowid: number) => number | undefined;
  private lastTerm: string | undefined;
  private lastDoc = -1;
  private rowids: number[] = [];
  private readonly docLen: Uint32Array;

  /** `rowids`: every row of the index, tokens or not. */
  constructor(rowids: Iterable<number>) {
    this.rowids = [...rowids].sort((a, b) => a - b);
    // Chunks sized for ~128 postings a row: the 8 MB of a full chunk, made and zeroed for the 100
    // rows of a crawl's difference, cost ~2.4 ms of the first search after each write.
    this.postings = new PostingChunks(Math.min(20, Math.max(12, Math.ceil(Math.log2(this.rowids.length * 128 + 1)))));
    this.docIndex = rowIndex(this.rowids);
    this.docLen = new Uint32Array(this.rowids.length);
  }

  /** One instance (one token occurrence); false when the row is not one the builder can represent. */
  add(term: string, rowid: number, col: number): boolean {
    const d = this.docIndex(rowid);
    if (d === undefined || (col !== 0 && col !== 1)) return false;
    if (term !== this.lastTerm) {
      if (this.termSeen.has(term)) return false; // FTS5 lists each term once, contiguously
      this.termSeen.add(term);
      this.terms.push(term);
      this.termStart.push(this.postings.length);
      this.lastTerm = term;
      this.lastDoc = -1;
    }
    if (d !== this.lastDoc) {
      if (d < this.lastDoc) return false;
      this.postings.push(d);
      this.lastDoc = d;
    }
    this.docLen[d]! += 1;
    return this.postings.count(col);
  }

  finish(): ImpactArrays {
    const termStart = new Uint32Array(this.terms.length + 1);
    termStart.set(this.termStart);
    termStart[this.terms.length] = this.postings.length;
    const out: ImpactArrays = {
      terms: this.terms,
      termStart,
      ...this.postings.join(),
      docIds: Int32Array.from(this.rowids),
      docLen: this.docLen,
    };
    this.rowids = [];
    return out;
  }
}

/** Repeated addition, as FTS5 adds a column's weight once per occurrence. */
function repeatedSums(w: number, max: number): Float64Array {
  const out = new Float64Array(max + 1);
  let f = 0;
  for (let i = 1; i <= max; i++) out[i] = f += w;
  return out;
}

/** The searchable copy: the blocks, each row's length normalisation, and both scorers. */
export class ImpactIndex implements Bm25Model {
  private readonly termIds: Map<string, number>;
  readonly norm: Float64Array;
  readonly nRow: number;
  readonly avgdl: number;
  /** Every row of the copy is in the index it answers for (bm25/impact-live.ts masks the ones removed since). */
  readonly removed = null;
  /** Tokens over all rows (FTS5's total size of the columns). */
  readonly nToken: number;
  private sums: { w: number; sums: Float64Array } | null = null;
  private readonly pruned = new MaxScoreSearch(this);
  private readonly exhaustive = new ExhaustiveSearch(this);

  private readonly idfs = new Map<number, number>();

  /**
   * `log`: the natural logarithm FTS5's bm25() uses — the C library's, which SQLite's ln() reaches
   * (bm25/fts5.ts passes it). JavaScript's Math.log differs from it in the last bit for a few
   * arguments in a hundred, and so would an idf, and a score.
   */
  constructor(
    readonly blocks: ImpactBlocks,
    readonly log: (x: number) => number = Math.log,
  ) {
    this.termIds = new Map(blocks.terms.map((t, i) => [t, i]));
    this.nRow = blocks.docIds.length;
    let nToken = 0;
    for (const len of blocks.docLen) nToken += len;
    this.nToken = nToken;
    this.avgdl = nToken / this.nRow;
    this.norm = lengthNorms(blocks.docLen, this.avgdl);
  }

  static fromArrays(a: ImpactArrays, log?: (x: number) => number): ImpactIndex {
    return new ImpactIndex(compressPostings(a), log);
  }

  has(token: string): boolean {
    return this.termIds.has(token);
  }

  /** Bytes held for searching (blocks and per-row arrays; not the term strings). */
  get bytes(): number {
    return blocksBytes(this.blocks) + this.norm.byteLength;
  }

  idf(nHit: number): number {
    let idf = this.idfs.get(nHit);
    if (idf === undefined) {
      idf = bm25Idf(this.log, this.nRow, nHit);
      if (this.idfs.size > 100_000) this.idfs.clear();
      this.idfs.set(nHit, idf);
    }
    return idf;
  }

  termIdf(t: number): number {
    return this.idf(this.df(t));
  }

  /** Rows holding term t. */
  df(t: number): number {
    return this.blocks.termStart[t + 1]! - this.blocks.termStart[t]!;
  }

  /** The term's id in this copy, or −1. */
  termId(token: string): number {
    return this.termIds.get(token) ?? -1;
  }

  /** Sums up to the largest frequency a posting can hold, kept for the last weight asked for. */
  titleSums(w0: number): Float64Array {
    if (this.sums?.w !== w0) this.sums = { w: w0, sums: repeatedSums(w0, 0xffff) };
    return this.sums.sums;
  }

  /**
   * The top k rows for an OR of single-token phrases (one entry per phrase, in the MATCH
   * expression's order; repeats count again, as in FTS5), scored like bm25(w0, w1), with pruning.
   */
  search(phrases: readonly string[], k: number, weights: readonly [number, number]): ImpactHit[] {
    if (this.nRow === 0 || k < 1) return [];
    const top = this.pruned.search(this.termsOf(phrases), k, weights);
    return sortHits(top.docs.subarray(0, top.length), top.scores, this.blocks.docIds);
  }

  /** The same top k by scoring every posting of every term (the reference for `search`). */
  searchExhaustive(phrases: readonly string[], k: number, weights: readonly [number, number]): ImpactHit[] {
    if (this.nRow === 0 || k < 1) return [];
    return this.exhaustive.search(this.termsOf(phrases), k, weights);
  }

  /** Term ids of the phrases, in their order (−1: not in the copy). */
  termsOf(phrases: readonly string[]): number[] {
    return phrases.map((p) => this.termIds.get(p) ?? -1);
  }
}

/** FTS5's idf: ln((N − n + 0.5) / (n + 0.5)) for n of N rows, never below 1e-6. */
export function bm25Idf(log: (x: number) => number, nRow: number, nHit: number): number {
  const idf = log((nRow - nHit + 0.5) / (nHit + 0.5));
  return idf > 0 ? idf : 1e-6;
}

/** k1 · (1 − b + b · |D| / avgdl) per row, as FTS5's bm25() computes it. */
export function lengthNorms(docLen: Uint32Array, avgdl: number, into?: Float64Array): Float64Array {
  // A fresh 8 MB array at 1M rows cost ~12 ms in page faults alone here; `into` is written over instead.
  const norm = into?.length === docLen.length ? into : new Float64Array(docLen.length);
  for (let d = 0; d < docLen.length; d++) norm[d] = K1 * (1 - B + (B * docLen[d]!) / avgdl);
  return norm;
}

/** Heap entries as hits: score descending, rowid ascending among equals. */
export function sortHits(docs: Int32Array, scores: Float64Array, docIds: Int32Array): ImpactHit[] {
  const order = Array.from({ length: docs.length }, (_, i) => i);
  order.sort((a, b) => scores[b]! - scores[a]! || docs[a]! - docs[b]!);
  return order.map((i) => ({ snippetId: docIds[docs[i]!]!, score: scores[i]! }));
}

/** FTS5's term order: its keys compare as UTF-8 bytes, that is by code point (JS `<` compares UTF-16 units). */
export function compareTerms(a: string, b: string): number {
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The union of two term lists in FTS5's order, each term visited once with its index in either list
 * (−1 where that list lacks it): how a copy's terms and the added rows' are walked together.
 */
export function forEachTermOf(a: readonly string[], b: readonly string[], visit: (inA: number, inB: number) => void): void {
  for (let i = 0, j = 0; i < a.length || j < b.length;) {
    const c = i >= a.length ? 1 : j >= b.length ? -1 : compareTerms(a[i]!, b[j]!);
    visit(c <= 0 ? i++ : -1, c >= 0 ? j++ : -1);
  }
}

/**
 * The copy after a change, without reading the whole FTS5 index again: `base` without the rows
 * `remove`, plus `add` (the postings of the new rows, built the same way from FTS5's own tokenizer).
 * The result is what a full build over the changed index gives, array for array: rows in rowid
 * order, terms in FTS5's order, postings by row, terms left without postings dropped. Null when
 * `add` names a row `base` still holds (the caller builds from scratch).
 */
export function mergeImpact(base: ImpactArrays, remove: ReadonlySet<number>, add: ImpactArrays): ImpactArrays | null {
  // Rows: base minus removed, merged with the added ones (both ascending).
  const nBase = base.docIds.length;
  const nAdd = add.docIds.length;
  const baseMap = new Int32Array(nBase).fill(-1);
  const addMap = new Int32Array(nAdd);
  const docIds = new Int32Array(nBase + nAdd);
  const docLen = new Uint32Array(nBase + nAdd);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < nBase || j < nAdd) {
    const bi = i < nBase ? base.docIds[i]! : Infinity;
    if (i < nBase && remove.has(bi)) {
      i++;
      continue;
    }
    const aj = j < nAdd ? add.docIds[j]! : Infinity;
    if (bi === aj) return null;
    if (bi < aj) {
      baseMap[i] = n;
      docIds[n] = bi;
      docLen[n++] = base.docLen[i++]!;
    } else {
      addMap[j] = n;
      docIds[n] = aj;
      docLen[n++] = add.docLen[j++]!;
    }
  }
  // Terms: both lists are in FTS5's order; postings of a term merged by new row index.
  const cap = base.postDoc.length + add.postDoc.length;
  const postDoc = new Uint32Array(cap);
  const postTf0 = new Uint16Array(cap);
  const postTf1 = new Uint16Array(cap);
  const terms: string[] = [];
  const termStart: number[] = [];
  let p = 0;
  forEachTermOf(base.terms, add.terms, (ti, tj) => {
    const start = p;
    let x = ti >= 0 ? base.termStart[ti]! : 0;
    const xEnd = ti >= 0 ? base.termStart[ti + 1]! : 0;
    let y = tj >= 0 ? add.termStart[tj]! : 0;
    const yEnd = tj >= 0 ? add.termStart[tj + 1]! : 0;
    for (;;) {
      while (x < xEnd && baseMap[base.postDoc[x]!] === -1) x++;
      const dx = x < xEnd ? baseMap[base.postDoc[x]!]! : Infinity;
      const dy = y < yEnd ? addMap[add.postDoc[y]!]! : Infinity;
      if (dx === Infinity && dy === Infinity) break;
      if (dx < dy) {
        postDoc[p] = dx;
        postTf0[p] = base.postTf0[x]!;
        postTf1[p++] = base.postTf1[x++]!;
      } else {
        postDoc[p] = dy;
        postTf0[p] = add.postTf0[y]!;
        postTf1[p++] = add.postTf1[y++]!;
      }
    }
    if (p > start) {
      terms.push(ti >= 0 ? base.terms[ti]! : add.terms[tj]!);
      termStart.push(start);
    }
  });
  const ts = new Uint32Array(terms.length + 1);
  ts.set(termStart);
  ts[terms.length] = p;
  return {
    terms,
    termStart: ts,
    postDoc: postDoc.slice(0, p),
    postTf0: postTf0.slice(0, p),
    postTf1: postTf1.slice(0, p),
    docIds: docIds.slice(0, n),
    docLen: docLen.slice(0, n),
  };
}
