/**
 * The running top k of a pruned search (bm25/impact-maxscore.ts): a bounded binary heap of (score,
 * row) in typed arrays, worst at the root, so that the k-th score — the threshold a row must beat —
 * is read in O(1). "Worse" is the exhaustive order reversed: a lower score, or an equal score and a
 * later row.
 */

export interface TopHits {
  docs: Int32Array;
  scores: Float64Array;
  length: number;
}

/** A bounded heap of (score, doc), worst at the root: lower score, or equal score and later doc. */
export class Heap implements TopHits {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
  length = 0;
  constructor(readonly cap: number) {
    this.docs = new Int32Array(cap);
    this.scores = new Float64Array(cap);
  }
  private worse(i: number, j: number): boolean {
    const a = this.scores[i]!;
    const b = this.scores[j]!;
    return a < b || (a === b && this.docs[i]! > this.docs[j]!);
  }
  private swap(i: number, j: number): void {
    const d = this.docs[i]!;
    const s = this.scores[i]!;
    this.docs[i] = this.docs[j]!;
    this.scores[i] = this.scores[j]!;
    this.docs[j] = d;
    this.scores[j] = s;
  }
  get full(): boolean {
    return this.length === this.cap;
  }
  /** Adds while not full; then replaces the root (the caller checked that the new one is better). */
  push(score: number, doc: number): void {
    if (this.length < this.cap) {
      let i = this.length++;
      this.docs[i] = doc;
      this.scores[i] = score;
      for (let up = (i - 1) >> 1; i > 0 && this.worse(i, up); i = up, up = (i - 1) >> 1) this.swap(i, up);
      return;
    }
    this.docs[0] = doc;
    this.scores[0] = score;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      if (l >= this.length) break;
      const c = l + 1 < this.length && this.worse(l + 1, l) ? l + 1 : l;
      if (!this.worse(c, i)) break;
      this.swap(c, i);
      i = c;
    }
  }
  get minScore(): number {
    return this.scores[0]!;
  }
}
