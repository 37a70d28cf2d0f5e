/**
 * The reference scorer of the accelerator: every posting of every query term added to its row's
 * score, term at a time, in the query's phrase order — FTS5's own sums. The pruned search
 * (bm25/impact-maxscore.ts) must return exactly its top k; tests and the benchmark compare the two.
 * Its accumulators (one per row) are allocated on first use only.
 */
import { BLOCK, blockCount, blockPrev, decodeBlock } from './impact-blocks';
import type { ImpactHit } from './impact-types';
import { K1, type Bm25Model } from './impact-maxscore';

export class ExhaustiveSearch {
  private scratch: { acc: Float64Array; touched: Uint32Array; seen: Uint8Array } | null = null;

  constructor(private readonly m: Bm25Model) {}

  /** The top k for query terms given as term ids in phrase order (−1: not in the index), scored like bm25(w0, w1). */
  search(terms: readonly number[], k: number, weights: readonly [number, number]): ImpactHit[] {
    const n = this.m.nRow;
    this.scratch ??= { acc: new Float64Array(n), touched: new Uint32Array(n), seen: new Uint8Array(n) };
    const { acc, touched, seen } = this.scratch;
    const nTouched = accumulate(this.m, terms, weights, acc, touched, seen);
    const hits = topK(acc, touched, nTouched, k, this.m.blocks.docIds);
    for (let i = 0; i < nTouched; i++) {
      acc[touched[i]!] = 0;
      seen[touched[i]!] = 0;
    }
    return hits;
  }
}

/** Term at a time: every posting of every phrase's term added to its row's score; returns how many rows were touched. */
function accumulate(
  m: Bm25Model,
  terms: readonly number[],
  weights: readonly [number, number],
  acc: Float64Array,
  touched: Uint32Array,
  seen: Uint8Array,
): number {
  const bl = m.blocks;
  const sum0 = m.titleSums(weights[0]);
  const w1 = weights[1];
  const docs = new Int32Array(BLOCK);
  const tf0s = new Uint16Array(BLOCK);
  const tf1s = new Uint16Array(BLOCK);
  let nTouched = 0;
  for (const t of terms) {
    if (t < 0) continue;
    const idf = m.termIdf(t);
    const removed = m.removed;
    for (let b = bl.termBlock[t]!; b < bl.termBlock[t + 1]!; b++) {
      const count = blockCount(bl, t, b);
      decodeBlock(bl, b, count, blockPrev(bl, t, b), docs, tf0s, tf1s, 0);
      for (let j = 0; j < count; j++) {
        const d = docs[j]!;
        if (removed !== null && removed[d] === 1) continue;
        let f = sum0[tf0s[j]!]!;
        for (let n = tf1s[j]!; n > 0; n--) f += w1;
        if (!seen[d]) {
          seen[d] = 1;
          touched[nTouched++] = d;
        }
        acc[d] = acc[d]! + idf * ((f * (K1 + 1.0)) / (f + m.norm[d]!));
      }
    }
  }
  return nTouched;
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
