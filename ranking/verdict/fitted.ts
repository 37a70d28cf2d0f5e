/**
 * The aggregation fitted for one NLI model, kept in its folder as verdict.json by
 * training/fit-verdict.ts (fitted on the SciFact train split, chosen on the dev split): either a
 * learned aggregator (learned.ts: `weights`) or thresholds for the rule of aggregate.ts
 * (`thresholds`), with the evidence it was fitted to read (results × sentences per result) and
 * whether it was fitted on probabilities refined by the folder's stance head.
 */
import { optionalCount, parseLearnedAggregator, type LearnedAggregator } from './learned';
import type { VerdictThresholds } from './aggregate';

export type FittedThresholds = Required<Pick<VerdictThresholds, 'minEvidence' | 'mixedRatio' | 'refuteWeight' | 'pooling'>>;

export interface FittedAggregation {
  learned: LearnedAggregator | null;
  thresholds: FittedThresholds | null;
  depth?: number;
  sentences?: number;
  /** Fitted on the stance head's probabilities: without the head it does not apply. */
  stanceHead: boolean;
}

function parseThresholds(value: unknown): FittedThresholds {
  const t = (value ?? {}) as Record<string, unknown>;
  const num = (k: string, lo: number, hi: number) => {
    const x = t[k];
    if (typeof x !== 'number' || !Number.isFinite(x) || x < lo || x > hi)
      throw new RangeError(`verdict aggregation: thresholds.${k} must be a number in [${lo}, ${hi}]`);
    return x;
  };
  if (t.pooling !== 'mean' && t.pooling !== 'max') throw new RangeError('verdict aggregation: thresholds.pooling must be "mean" or "max"');
  return {
    minEvidence: num('minEvidence', 0, 1),
    mixedRatio: num('mixedRatio', 0, 2),
    refuteWeight: num('refuteWeight', 0.1, 10),
    pooling: t.pooling,
  };
}

export function parseFittedAggregation(value: unknown): FittedAggregation {
  const v = (value ?? {}) as { thresholds?: unknown; weights?: unknown; depth?: unknown; sentences?: unknown; stance_head?: unknown };
  if (v.stance_head !== undefined && typeof v.stance_head !== 'boolean')
    throw new RangeError('verdict aggregation: stance_head must be true or false');
  const stanceHead = v.stance_head === true;
  if (v.thresholds !== undefined) {
    if (v.weights !== undefined) throw new RangeError('verdict aggregation: either weights (a learned aggregator) or thresholds, not both');
    const depth = optionalCount(v.depth, 'depth');
    const sentences = optionalCount(v.sentences, 'sentences');
    return {
      learned: null,
      thresholds: parseThresholds(v.thresholds),
      stanceHead,
      ...(depth ? { depth } : {}),
      ...(sentences ? { sentences } : {}),
    };
  }
  const learned = parseLearnedAggregator(value);
  return {
    learned,
    thresholds: null,
    stanceHead,
    ...(learned.depth ? { depth: learned.depth } : {}),
    ...(learned.sentences ? { sentences: learned.sentences } : {}),
  };
}
