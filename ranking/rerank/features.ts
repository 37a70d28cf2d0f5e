/**
 * First-stage and sentence-level features of a reranking candidate, read by the feature-combination
 * layer (combo.ts) beside the cross-encoder's own score. All are computed from what the pipeline
 * already has: the fused / BM25 / dense scores and ranks, and the cached sentence vectors of the
 * snippet (the dense index's encoder) against the query vector — nothing is embedded here.
 */
import type { RerankCandidate, StageContext } from '../stages';

export const FEATURE_NAMES = ['fused', 'bm25', 'dense', 'bm25_rr', 'dense_rr', 'sent_max', 'sent_top2', 'sent_mean'] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];
export type Features = Record<FeatureName, number>;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Best, mean of the best two, and mean cosine of the query with the snippet's sentences (0 when none is cached). */
export function sentenceSimilarities(
  query: Float32Array,
  vectors: readonly (Float32Array | null)[],
): { max: number; top2: number; mean: number } {
  const sims = vectors.filter((v): v is Float32Array => v !== null && v.length === query.length).map((v) => dot(query, v));
  if (!sims.length) return { max: 0, top2: 0, mean: 0 };
  sims.sort((a, b) => b - a);
  const top2 = sims.length > 1 ? (sims[0]! + sims[1]!) / 2 : sims[0]!;
  return { max: sims[0]!, top2, mean: sims.reduce((s, x) => s + x, 0) / sims.length };
}

/** Pure: one candidate's features, given its sentences' similarities. */
export function featuresOf(
  c: Pick<RerankCandidate, 'fused' | 'bm25' | 'dense' | 'bm25Rank' | 'denseRank'>,
  sims: { max: number; top2: number; mean: number },
): Features {
  return {
    fused: c.fused,
    bm25: c.bm25 ?? 0,
    dense: c.dense ?? 0,
    bm25_rr: c.bm25Rank ? 1 / c.bm25Rank : 0,
    dense_rr: c.denseRank ? 1 / c.denseRank : 0,
    sent_max: sims.max,
    sent_top2: sims.top2,
    sent_mean: sims.mean,
  };
}

export async function candidateFeatures(cands: readonly RerankCandidate[], ctx: StageContext): Promise<Features[]> {
  const flat = cands.flatMap((c) => c.sentences);
  const vectors = flat.length ? await ctx.indexes.sentenceVectors.get(flat) : [];
  let at = 0;
  return cands.map((c) => {
    const own = vectors.slice(at, at + c.sentences.length);
    at += c.sentences.length;
    return featuresOf(c, sentenceSimilarities(ctx.queryVector, own));
  });
}
