/**
 * How a reranker's score joins the first-stage score (pure). Both are min-max normalised over the
 * reranked candidates of one query, then mixed: r = w · model + (1 − w) · first stage, so r ∈ [0, 1]
 * stays a non-negative relevance for the time decay. w is chosen on the development split
 * (docs/models.md); w = 0 keeps the first-stage order exactly, w = 1 trusts the model alone.
 */
import { minMax } from '../normalize';

export { minMax };

export function combineScores(model: readonly number[], firstStage: readonly number[], weight: number): number[] {
  if (model.length !== firstStage.length) throw new RangeError(`${model.length} model scores for ${firstStage.length} candidates`);
  if (!(weight >= 0 && weight <= 1)) throw new RangeError(`rerank weight ${weight} outside [0, 1]`);
  const m = minMax(model);
  const f = minMax(firstStage);
  return m.map((x, i) => weight * x + (1 - weight) * f[i]!);
}
