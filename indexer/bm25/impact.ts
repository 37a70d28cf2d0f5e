/**
 * An exact in-memory copy of an FTS5 index's postings, for BM25 top-k without FTS5's per-row cost.
 *
 * FTS5 answers `"a" OR "b" … ORDER BY rank LIMIT k` by calling bm25() on every matching row (a
 * %_docsize lookup and a position-list walk each): at 100k snippets a claim with common words scores
 * tens of thousands of rows (p95 ~74 ms). Here the same postings (document, per-column term
 * frequency) sit in typed arrays and are scored term-at-a-time with FTS5's own formula, in FTS5's
 * order of floating-point operations (sqlite/ext/fts5/fts5_aux.c, fts5Bm25Function), so scores are
 * the same doubles and the top k the same rows (ties: lower rowid first).
 *
 * Pure: built from rows, searched from token ids; the SQLite side (reading, fingerprint, file) is
 * bm25/impact-store.ts.
 */

/** FTS5's bm25() constants. */
const K1 = 1.2;
const B = 0.75;

export interface ImpactArrays {
  /** Distinct tokens in FTS5's order (its own tokens: stemmed, folded). */
  terms: string[];
  /** Postings of term t: [termStart[t], termStart[t + 1]). */
  termStart: Uint32Array;
  /** Document index (into docIds) per posting, ascending within a term. */
  postDoc: Uint32Array;
  /** Occurrences in column 0 (title) and column 1 (text) per posting. */
  postTf0: Uint16Array;
  postTf1: Uint16Array;
  /** Rowids in ascending order, and each row's size in tokens over all columns. */
  docIds: Int32Array;
  docLen: Uint32Array;
}

export interface ImpactHit {
  snippetId: number;
  score: number;
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
  private postDoc: number[] = [];
  private tf0: number[] = [];
  private tf1: number[] = [];
  private readonly docIndex = new Map<number, number>();
  private lastTerm: string | undefined;
  private lastDoc = -1;
  private rowids: number[] = [];
  private readonly docLen: Uint32Array;

  /** `rowids`: every row of the index, tokens or not. */
  constructor(rowids: Iterable<number>) {
    this.rowids = [...rowids].sort((a, b) => a - b);
    this.rowids.forEach((id, i) => this.docIndex.set(id, i));
    this.docLen = new Uint32Array(this.rowids.length);
  }

  /** One instance (one token occurrence); false when the row is not one the builder can represent. */
  add(term: string, rowid: number, col: number): boolean {
    const d = this.docIndex.get(rowid);
    if (d === undefined || (col !== 0 && col !== 1)) return false;
    if (term !== this.lastTerm) {
      if (this.termSeen.has(term)) return false; // FTS5 lists each term once, contiguously
      this.termSeen.add(term);
      this.terms.push(term);
      this.termStart.push(this.postDoc.length);
      this.lastTerm = term;
      this.lastDoc = -1;
    }
    if (d !== this.lastDoc) {
      if (d < this.lastDoc) return false;
      this.postDoc.push(d);
      this.tf0.push(0);
      this.tf1.push(0);
      this.lastDoc = d;
    }
    const j = this.postDoc.length - 1;
    this.docLen[d]! += 1;
    const arr = col === 0 ? this.tf0 : this.tf1;
    if (arr[j]! >= 0xffff) return false;
    arr[j]! += 1;
    return true;
  }

  finish(): ImpactArrays {
    const termStart = new Uint32Array(this.terms.length + 1);
    termStart.set(this.termStart);
    termStart[this.terms.length] = this.postDoc.length;
    const out: ImpactArrays = {
      terms: this.terms,
      termStart,
      postDoc: Uint32Array.from(this.postDoc),
      postTf0: Uint16Array.from(this.tf0),
      postTf1: Uint16Array.from(this.tf1),
      docIds: Int32Array.from(this.rowids),
      docLen: this.docLen,
    };
    this.postDoc = this.tf0 = this.tf1 = this.rowids = [];
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

export class ImpactIndex {
  private readonly termIds: Map<string, number>;
  /** k1 · (1 − b + b · |D| / avgdl) per document, as fts5Bm25Function computes it. */
  private readonly norm: Float64Array;
  private readonly acc: Float64Array;
  private readonly touched: Uint32Array;
  private readonly seen: Uint8Array;
  readonly nRow: number;

  constructor(readonly data: ImpactArrays) {
    this.termIds = new Map(data.terms.map((t, i) => [t, i]));
    this.nRow = data.docIds.length;
    let nToken = 0;
    for (const len of data.docLen) nToken += len;
    const avgdl = nToken / this.nRow;
    this.norm = new Float64Array(this.nRow);
    for (let d = 0; d < this.nRow; d++) this.norm[d] = K1 * (1 - B + (B * data.docLen[d]!) / avgdl);
    this.acc = new Float64Array(this.nRow);
    this.touched = new Uint32Array(this.nRow);
    this.seen = new Uint8Array(this.nRow);
  }

  has(token: string): boolean {
    return this.termIds.has(token);
  }

  /**
   * The top k rows for an OR of single-token phrases (one entry per phrase, in the MATCH
   * expression's order; repeats count again, as in FTS5), scored like bm25(w0, w1).
   */
  search(phrases: readonly string[], k: number, weights: readonly [number, number]): ImpactHit[] {
    const { termStart, postDoc, postTf0, postTf1, docIds } = this.data;
    const { acc, touched, seen, norm } = this;
    if (this.nRow === 0 || k < 1) return [];
    let maxTf = 0;
    const lists = phrases.map((p) => this.termIds.get(p));
    for (const t of lists) {
      if (t === undefined) continue;
      for (let j = termStart[t]!; j < termStart[t + 1]!; j++) maxTf = Math.max(maxTf, postTf0[j]!, postTf1[j]!);
    }
    const sum0 = repeatedSums(weights[0], maxTf);
    let nTouched = 0;
    for (const t of lists) {
      if (t === undefined) continue;
      const start = termStart[t]!;
      const end = termStart[t + 1]!;
      const nHit = end - start;
      let idf = Math.log((this.nRow - nHit + 0.5) / (nHit + 0.5));
      if (idf <= 0) idf = 1e-6;
      const w1 = weights[1];
      for (let j = start; j < end; j++) {
        const d = postDoc[j]!;
        let f = sum0[postTf0[j]!]!;
        for (let n = postTf1[j]!; n > 0; n--) f += w1;
        if (!seen[d]) {
          seen[d] = 1;
          touched[nTouched++] = d;
        }
        acc[d] = acc[d]! + idf * ((f * (K1 + 1.0)) / (f + norm[d]!));
      }
    }
    const hits = topK(acc, touched, nTouched, k, docIds);
    for (let i = 0; i < nTouched; i++) {
      acc[touched[i]!] = 0;
      seen[touched[i]!] = 0;
    }
    return hits;
  }
}

/** The k best (score descending, rowid ascending among equals) of the touched documents. */
function topK(acc: Float64Array, touched: Uint32Array, n: number, k: number, docIds: Int32Array): ImpactHit[] {
  let chosen: number[];
  if (n <= k) chosen = Array.from(touched.subarray(0, n));
  else {
    const scores = new Float64Array(n);
    for (let i = 0; i < n; i++) scores[i] = acc[touched[i]!]!;
    scores.sort();
    const threshold = scores[n - k]!;
    chosen = [];
    for (let i = 0; i < n; i++) if (acc[touched[i]!]! >= threshold) chosen.push(touched[i]!);
  }
  // Document indexes follow rowid order, so comparing them breaks ties by rowid.
  chosen.sort((a, b) => acc[b]! - acc[a]! || a - b);
  return chosen.slice(0, k).map((d) => ({ snippetId: docIds[d]!, score: acc[d]! }));
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
  let ti = 0;
  let tj = 0;
  const nbT = base.terms.length;
  const naT = add.terms.length;
  while (ti < nbT || tj < naT) {
    const c = ti >= nbT ? 1 : tj >= naT ? -1 : compareTerms(base.terms[ti]!, add.terms[tj]!);
    const start = p;
    let x = c <= 0 ? base.termStart[ti]! : 0;
    const xEnd = c <= 0 ? base.termStart[ti + 1]! : 0;
    let y = c >= 0 ? add.termStart[tj]! : 0;
    const yEnd = c >= 0 ? add.termStart[tj + 1]! : 0;
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
      terms.push(c <= 0 ? base.terms[ti]! : add.terms[tj]!);
      termStart.push(start);
    }
    if (c <= 0) ti++;
    if (c >= 0) tj++;
  }
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
