/**
 * How a reranker's score joins the first-stage score (pure). Both are min-max normalised over the
 * reranked candidates of one query, then mixed: r = w · model + (1 − w) · first stage, so r ∈ [0, 1]
 * stays a non-negative relevance for the time decay. w is chosen on the development split
 * (docs/models.md); w = 0 keeps the first-stage order exactly, w = 1 trusts the model alone.
 *
 * Min-max gives the weakest reranked match 0, and a relevance of 0 is one the time decay can never
 * lift: of two matches, the newer one lost to a five-year-old one at a one-week half-life because it
 * was the weaker of the two. So the stage's relevance is lifted into [WEAKEST_MATCH, 1] (asRelevance):
 * the order is unchanged, and the weakest match the floor let through is still 1/100 of the best —
 * it can come first when it is more than about 6.6 half-lives newer.
 */
import { minMax } from '../normalize';

export { minMax };

export const WEAKEST_MATCH = 0.01;

/** A [0, 1] combined score as a relevance in [WEAKEST_MATCH, 1] (non-finite: WEAKEST_MATCH). */
export function asRelevance(x: number): number {
  const v = Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
  return WEAKEST_MATCH + (1 - WEAKEST_MATCH) * v;
}

export function combineScores(model: readonly number[], firstStage: readonly number[], weight: number): number[] {
  if (model.length !== firstStage.length) throw new RangeError(`${model.length} model scores for ${firstStage.length} candidates`);
  if (!(weight >= 0 && weight <= 1)) throw new RangeError(`rerank weight ${weight} outside [0, 1]`);
  const m = minMax(model);
  const f = minMax(firstStage);
  return m.map((x, i) => weight * x + (1 - weight) * f[i]!);
}
