/**
 * A learned verdict aggregator (pure): multinomial logistic regression over a few claim-level
 * features of the judged evidence — weighted mean and weighted max of p(entailment) and
 * p(contradiction), and the probabilities of the first (best) sentence of the top result. It replaces
 * the hand-set thresholds of aggregate.ts when the NLI model's folder carries one (verdict.json),
 * fitted by training/fit-verdict.ts on the SciFact train split (claim-level labels, class-balanced)
 * with the variant chosen on the dev split. Other NLI models keep the thresholds.
 */
import type { VerdictLabel } from '../types';

export const VERDICT_FEATURES = ['bias', 'mean_entail', 'mean_contra', 'max_entail', 'max_contra', 'top_entail', 'top_contra'] as const;
/** SciFact has no MIXED claims, so the learned aggregator never says MIXED. */
export const LEARNED_LABELS = ['SUPPORTED', 'REFUTED', 'NOT_ENOUGH_EVIDENCE'] as const satisfies readonly VerdictLabel[];

export interface LearnedAggregator {
  /** One weight row per label of LEARNED_LABELS, one weight per feature of VERDICT_FEATURES. */
  weights: number[][];
  /** Results and sentences per result it was fitted for (they replace QUIN_VERDICT_DEPTH / _SENTENCES). */
  depth?: number;
  sentences?: number;
}

interface Judgement {
  probs: { entailment: number; contradiction: number };
  relevance: number;
  recency: number;
}

/** The features, in VERDICT_FEATURES order; null when there is nothing with a positive weight. */
export function verdictFeatures(judged: readonly Judgement[]): number[] | null {
  let w = 0;
  let me = 0;
  let mc = 0;
  let xe = 0;
  let xc = 0;
  for (const j of judged) {
    const wt = Math.max(0, j.relevance) * Math.max(0, j.recency);
    w += wt;
    me += wt * j.probs.entailment;
    mc += wt * j.probs.contradiction;
    xe = Math.max(xe, wt * j.probs.entailment);
    xc = Math.max(xc, wt * j.probs.contradiction);
  }
  if (!(w > 0)) return null;
  return [1, me / w, mc / w, xe, xc, judged[0]!.probs.entailment, judged[0]!.probs.contradiction];
}

/** Softmax probabilities of LEARNED_LABELS for a feature vector. */
export function learnedProbs(features: readonly number[], model: LearnedAggregator): number[] {
  const z = model.weights.map((row) => row.reduce((a, w, d) => a + w * features[d]!, 0));
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

/** An optional positive integer of a fitted verdict.json (results or sentences read). */
export function optionalCount(x: unknown, name: string): number | undefined {
  if (x === undefined) return undefined;
  if (!Number.isInteger(x) || (x as number) < 1) throw new RangeError(`verdict aggregator: ${name} must be a positive integer`);
  return x as number;
}

export function parseLearnedAggregator(value: unknown): LearnedAggregator {
  const w = (value as { weights?: unknown } | null)?.weights;
  const ok = Array.isArray(w) && w.length === LEARNED_LABELS.length && w.every((row) => Array.isArray(row) && row.length === VERDICT_FEATURES.length && row.every((x) => typeof x === 'number' && Number.isFinite(x)));
  if (!ok) throw new RangeError(`verdict aggregator: weights must be ${LEARNED_LABELS.length} rows (${LEARNED_LABELS.join(', ')}) of ${VERDICT_FEATURES.length} finite numbers (${VERDICT_FEATURES.join(', ')})`);
  const v = value as { depth?: unknown; sentences?: unknown };
  const out: LearnedAggregator = { weights: (w as number[][]).map((row) => [...row]) };
  const depth = optionalCount(v.depth, 'depth');
  const sentences = optionalCount(v.sentences, 'sentences');
  return { ...out, ...(depth ? { depth } : {}), ...(sentences ? { sentences } : {}) };
}
