/**
 * What `bench:search` measures of BM25's dynamic pruning and of the dense index's probe count, on the
 * indexes the serve phase opened (bench/search.ts calls `pruningChecks` after its latency runs):
 * - BM25: the accelerator's pruned top k (RETRIEVE_K) against its exhaustive scorer, on claims
 *   through the product's query analysis: how many lists are identical (rows, scores, order), the
 *   recall@100, and the latency of each alone;
 * - hybrid: the fused top 100 (pruned BM25 + the dense index at its serving setting) against the fused
 *   top 100 of exhaustive BM25 + exact dense search: recall@100;
 * - dense: for each value of the index's knob (efSearch of an HNSW graph, nprobe of an IVF index),
 *   latency of a top-K search, recall@10/@100 against exact search and the hybrid recall@100 it
 *   gives — the curve DENSE_EF_SEARCH / FAISS_NPROBE (indexer/dense/dense-index.ts) are picked by;
 * - memory: RSS after opening the indexes, and the accelerator's bytes beside the flat arrays it
 *   replaced (8 bytes a posting, plus 8 a row).
 */
import { DenseReader, FAISS_NPROBE, searchLoaded } from '../indexer/dense/dense-index';
import { Fts5Index } from '../indexer/bm25/fts5';
import type { Hit } from '../indexer/types';
import { analyzeQuery, RETRIEVE_K, type SearchContext } from '../ranking';
import { fuse } from '../ranking/retrieve';
import { embedQuery } from '../ranking/query-vectors';
import { summarize, type LatencySummary } from './stats';

export interface NprobeRow {
  nprobe: number;
  latency: LatencySummary;
  recall10: number;
  recall100: number;
  /** The fused top 100 (pruned BM25 + this nprobe) against exhaustive BM25 + exact dense search. */
  hybrid100: number;
}

export interface PruningResult {
  k: number;
  /** BM25: claims compared, lists identical to the exhaustive scorer's, mean recall@100. */
  queries: number;
  identical: number;
  bm25Recall100: number;
  pruned: LatencySummary;
  exhaustive: LatencySummary;
  /** Fused top 100 against exhaustive BM25 + exact dense search. */
  hybrid: { queries: number; recall100: number } | null;
  /** The dense curve: nprobe (IVF, nlist lists) or efSearch (HNSW, nlist 0: the exact row is float search over recomputed vectors). */
  faiss: { factory: string; param?: 'nprobe' | 'efSearch'; nlist: number; serving: number; queries: number; rows: NprobeRow[] } | null;
  memory: { rssAfterOpenMB: number; acceleratorMB: number; flatMB: number } | null;
}

/** nprobe values of the curve (those above the index's list count are left out; all lists = exact). */
const NPROBES = [8, 16, 32, 64, 128, 256];

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Share of `truth`'s first n rows that `got`'s first n hold. */
function recallAt(got: readonly { snippetId: number }[], truth: readonly { snippetId: number }[], n: number): number {
  const want = truth.slice(0, n).map((h) => h.snippetId);
  if (!want.length) return 1;
  const have = new Set(got.slice(0, n).map((h) => h.snippetId));
  return want.filter((id) => have.has(id)).length / want.length;
}

const identical = (a: readonly Hit[], b: readonly Hit[]) =>
  a.length === b.length && a.every((h, i) => h.snippetId === b[i]!.snippetId && Object.is(h.score, b[i]!.score));

const mean = (xs: readonly number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10_000) / 10_000 : 1);

function timed<T>(ms: number[], f: () => T): T {
  const t = performance.now();
  const out = f();
  ms.push(performance.now() - t);
  return out;
}

/** Each claim with its BM25 terms, as the pipeline analyses it (claims it refuses are left out). */
function analysed(queries: readonly string[], ctx: SearchContext): { q: string; terms: string[] }[] {
  return queries.flatMap((q) => {
    try {
      return [{ q, terms: analyzeQuery(q, { maxChars: ctx.options.maxQueryChars }).terms }];
    } catch {
      return [];
    }
  });
}

interface Bm25Runs {
  pruned: Hit[][];
  exhaustive: Hit[][];
}

type Bm25Stats = Pick<PruningResult, 'queries' | 'identical' | 'bm25Recall100' | 'pruned' | 'exhaustive'>;

function bm25Checks(fts: Fts5Index, terms: readonly string[][]): { stats: Bm25Stats; runs: Bm25Runs } {
  const ms = { pruned: [] as number[], exhaustive: [] as number[] };
  // One pass each: the exhaustive scorer walks every posting and would leave the caches cold for the next pruned search.
  const pass = (exhaustive: boolean, times: number[]) => {
    for (const t of terms.slice(0, 10)) fts.searchImpact(t, RETRIEVE_K, exhaustive); // warm-up
    return terms.map((t) => {
      const hits = timed(times, () => fts.searchImpact(t, RETRIEVE_K, exhaustive));
      if (!hits) throw new Error('bench: the BM25 accelerator did not answer (is it built and fresh?)');
      return hits;
    });
  };
  const runs: Bm25Runs = { pruned: pass(false, ms.pruned), exhaustive: pass(true, ms.exhaustive) };
  const stats = {
    queries: terms.length,
    identical: runs.pruned.filter((h, i) => identical(h, runs.exhaustive[i]!)).length,
    bm25Recall100: mean(runs.pruned.map((h, i) => recallAt(h, runs.exhaustive[i]!, 100))),
    pruned: summarize(ms.pruned),
    exhaustive: summarize(ms.exhaustive),
  };
  return { stats, runs };
}

/** efSearch values of an HNSW curve (a search for k = 500 keeps at least 500 candidates). */
const EF_SEARCHES = [500, 768, 1024, 1536, 2048, 3072];

/** The layout's search knob and the values of its curve; null for an exact (Flat) index. */
function curveOf(factory: string): { param: 'nprobe' | 'efSearch'; nlist: number; values: number[] } | null {
  const nlist = Number(/IVF(\d+)/i.exec(factory)?.[1] ?? 0);
  if (nlist) return { param: 'nprobe', nlist, values: NPROBES.filter((n) => n < nlist) };
  return /HNSW/i.test(factory) ? { param: 'efSearch', nlist: 0, values: EF_SEARCHES } : null;
}

/**
 * The dense side of the checks: the curve over nprobe (IVF) or efSearch (HNSW) and the hybrid
 * recall as served. Exact search: every IVF list, a Flat index as it is, or for HNSW the float
 * vectors computed again (`exact`, bench/exact-dense.ts; its row's latency is that of the recomputation).
 */
async function denseChecks(
  ctx: SearchContext,
  dense: DenseReader,
  vectors: readonly Float32Array[],
  runs: Bm25Runs,
  serving: number,
  exact?: (queries: readonly Float32Array[]) => Promise<Hit[][]>,
): Promise<Pick<PruningResult, 'hybrid' | 'faiss'>> {
  const loaded = dense.loaded;
  if (!loaded || !vectors.length) return { hybrid: null, faiss: null };
  const curve = curveOf(loaded.index.factory);
  const search = (n: number | null) => {
    if (curve && n) loaded.index.setSearchParam(curve.param, n);
    for (const v of vectors.slice(0, 10)) searchLoaded(loaded, v, RETRIEVE_K);
    const ms: number[] = [];
    const hits = vectors.map((v) => timed(ms, () => searchLoaded(loaded, v, RETRIEVE_K)));
    return { hits, latency: summarize(ms) };
  };
  let truth: { hits: Hit[][]; latency: LatencySummary };
  if (curve?.param === 'efSearch' && exact) {
    const t = performance.now();
    const hits = await exact(vectors);
    truth = { hits, latency: summarize([(performance.now() - t) / vectors.length]) };
  } else if (curve?.param === 'efSearch') return { hybrid: null, faiss: null };
  else truth = search(curve ? curve.nlist : null);
  const fused = (bm25: Hit[][], hits: Hit[][]) =>
    hits.map((h, i) => fuse({ mode: 'hybrid', bm25: bm25[i]!, dense: h, vector: vectors[i]! }, ctx));
  const fusedTruth = fused(runs.exhaustive, truth.hits);
  const hybridRecall = (hits: Hit[][]) => mean(fused(runs.pruned, hits).map((f, i) => recallAt(f, fusedTruth[i]!, 100)));
  const rows: NprobeRow[] = [...new Set([...(curve?.values ?? []), ...(curve ? [serving] : [])])]
    .sort((a, b) => a - b)
    .map((value) => {
      const { hits, latency } = search(value);
      return {
        nprobe: value,
        latency,
        recall10: mean(hits.map((h, i) => recallAt(h, truth.hits[i]!, 10))),
        recall100: mean(hits.map((h, i) => recallAt(h, truth.hits[i]!, 100))),
        hybrid100: hybridRecall(hits),
      };
    });
  if (curve) loaded.index.setSearchParam(curve.param, serving);
  const served = curve ? rows.find((r) => r.nprobe === serving)?.hybrid100 : hybridRecall(truth.hits);
  rows.push({ nprobe: curve?.nlist ?? 0, latency: truth.latency, recall10: 1, recall100: 1, hybrid100: hybridRecall(truth.hits) });
  return {
    hybrid: served === undefined ? null : { queries: vectors.length, recall100: served },
    faiss: curve ? { factory: loaded.index.factory, param: curve.param, nlist: curve.nlist, serving, queries: vectors.length, rows } : null,
  };
}

/**
 * The checks above, on `queries` (claims); null when BM25 is not FTS5 with an accelerator (another
 * backend, or a corpus below BM25_IMPACT_MIN). `rssAfterOpenMB`: measured by the caller right after opening.
 */
export async function pruningChecks(
  ctx: SearchContext,
  queries: readonly string[],
  rssAfterOpenMB: number,
  serving = FAISS_NPROBE,
  exact?: (queries: readonly Float32Array[]) => Promise<Hit[][]>,
): Promise<PruningResult | null> {
  const fts = ctx.indexes.bm25;
  const index = fts instanceof Fts5Index ? fts.accelerator() : null;
  if (!(fts instanceof Fts5Index) || !index) return null;
  const claims = analysed(queries, ctx);
  const { stats, runs } = bm25Checks(
    fts,
    claims.map((c) => c.terms),
  );
  const dense = ctx.indexes.dense instanceof DenseReader ? ctx.indexes.dense : null;
  // The hybrid and FAISS checks on the first 200 claims (exact dense search costs tens of ms a claim at 1M).
  const vectors: Float32Array[] = [];
  for (const c of dense ? claims.slice(0, 200) : []) {
    const v = await embedQuery(ctx.indexes.encoder, c.q);
    if (!v) break;
    vectors.push(v);
  }
  const postings = index.blocks.termStart[index.blocks.terms.length] ?? 0;
  return {
    k: RETRIEVE_K,
    ...stats,
    ...(dense ? await denseChecks(ctx, dense, vectors, runs, serving, exact) : { hybrid: null, faiss: null }),
    memory: { rssAfterOpenMB, acceleratorMB: mb(index.bytes), flatMB: mb(postings * 8 + index.nRow * 8) },
  };
}
