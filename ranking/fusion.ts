/**
 * Fusion of the BM25 and dense runs, pure. Both take each run's hits (higher score = better) and
 * return one candidate per snippet with its per-run scores and ranks kept for the breakdown.
 *
 * - Reciprocal Rank Fusion (Cormack et al. 2009): Σ w_run / (k + rank_run), k = 60. Equal weights
 *   (0.5 / 0.5) are classic RRF up to a constant factor.
 * - Score fusion: w · norm(bm25) + (1 − w) · norm(dense), a snippet missing from a run scoring 0 there.
 *   `minmax` maps each run's retrieved scores to [0, 1]; `max` divides by the run's best score (which
 *   does not depend on how deep the run was retrieved).
 */
import type { Hit } from '../indexer/types';
import { minMaxScaler } from './normalize';

export interface FusedCandidate {
  snippetId: number;
  bm25: number | null;
  bm25Rank: number | null;
  dense: number | null;
  denseRank: number | null;
  /** Relevance after fusion, ≥ 0; higher is better. */
  fused: number;
}

export type Normalization = 'minmax' | 'max';

export interface FusionWeights {
  /** Weight of the BM25 run; the dense run gets 1 − bm25Weight. */
  bm25Weight: number;
}

/** Hits best first, one per snippet (the best score kept), ties broken by snippet id for stable output. */
export function rankHits(hits: readonly Hit[]): Hit[] {
  const best = new Map<number, number>();
  for (const h of hits) {
    if (!Number.isFinite(h.score)) continue;
    const prev = best.get(h.snippetId);
    if (prev === undefined || h.score > prev) best.set(h.snippetId, h.score);
  }
  return [...best].map(([snippetId, score]) => ({ snippetId, score })).sort((a, b) => b.score - a.score || a.snippetId - b.snippetId);
}

function merge(bm25: readonly Hit[], dense: readonly Hit[]): Map<number, FusedCandidate> {
  const out = new Map<number, FusedCandidate>();
  const get = (id: number) => {
    let c = out.get(id);
    if (!c) out.set(id, (c = { snippetId: id, bm25: null, bm25Rank: null, dense: null, denseRank: null, fused: 0 }));
    return c;
  };
  rankHits(bm25).forEach((h, i) => Object.assign(get(h.snippetId), { bm25: h.score, bm25Rank: i + 1 }));
  rankHits(dense).forEach((h, i) => Object.assign(get(h.snippetId), { dense: h.score, denseRank: i + 1 }));
  return out;
}

export function sortFused(cands: Iterable<FusedCandidate>): FusedCandidate[] {
  return [...cands].sort((a, b) => b.fused - a.fused || a.snippetId - b.snippetId);
}

export function fuseRrf(bm25: readonly Hit[], dense: readonly Hit[], k: number, w: FusionWeights): FusedCandidate[] {
  const cands = merge(bm25, dense);
  for (const c of cands.values()) {
    c.fused = (c.bm25Rank ? w.bm25Weight / (k + c.bm25Rank) : 0) + (c.denseRank ? (1 - w.bm25Weight) / (k + c.denseRank) : 0);
  }
  return sortFused(cands.values());
}

/** A run's normaliser: score → [0, 1] over the run's retrieved scores. */
export function normalizer(scores: readonly number[], how: Normalization): (s: number) => number {
  if (how === 'minmax') return minMaxScaler(scores);
  const max = scores.length ? Math.max(...scores) : 0;
  return max > 0 ? (s) => Math.max(0, s / max) : () => 0;
}

export function fuseScores(bm25: readonly Hit[], dense: readonly Hit[], w: FusionWeights, how: Normalization): FusedCandidate[] {
  const cands = merge(bm25, dense);
  const nb = normalizer(bm25.map((h) => h.score).filter(Number.isFinite), how);
  const nd = normalizer(dense.map((h) => h.score).filter(Number.isFinite), how);
  for (const c of cands.values()) {
    c.fused = (c.bm25 === null ? 0 : w.bm25Weight * nb(c.bm25)) + (c.dense === null ? 0 : (1 - w.bm25Weight) * nd(c.dense));
  }
  return sortFused(cands.values());
}

/** One run alone (the bm25 / dense modes): relevance is the run's own score, clamped at 0. */
export function singleRun(hits: readonly Hit[], which: 'bm25' | 'dense'): FusedCandidate[] {
  return rankHits(hits).map((h, i) => ({
    snippetId: h.snippetId,
    bm25: which === 'bm25' ? h.score : null,
    bm25Rank: which === 'bm25' ? i + 1 : null,
    dense: which === 'dense' ? h.score : null,
    denseRank: which === 'dense' ? i + 1 : null,
    fused: Math.max(0, h.score),
  }));
}
