/**
 * From per-sentence NLI judgements to one verdict (pure). Each evidence sentence weighs
 * relevance × recency (relevance = its result's pre-decay score relative to the best one), and
 * contributes its entailment and contradiction probabilities:
 *
 *   support = Σ w·p(entail) / Σ w        refute = γ · Σ w·p(contradict) / Σ w   (γ = refuteWeight, capped at 1)
 *
 * or, with pooling 'max', support = max w·p(entail) / max w (refute likewise);
 *
 * Both below `minEvidence` → NOT_ENOUGH_EVIDENCE (abstain: the evidence is weak or off-topic); the
 * weaker side at least `mixedRatio` of the stronger → MIXED; otherwise the stronger side wins.
 * Thresholds are chosen on the development split (docs/models.md).
 */
import type { NliProbs } from '../../lib/models';
import type { Stance, StanceEvidence, Verdict, VerdictLabel } from '../types';
import { LEARNED_LABELS, learnedProbs, verdictFeatures, type LearnedAggregator } from './learned';

export interface VerdictThresholds {
  minEvidence: number;
  mixedRatio: number;
  /**
   * Multiplies the refutation before the decision (a prior correction: NLI models trained with few
   * contradictions under-call them); 1 = none. Chosen on the development split.
   */
  refuteWeight?: number;
  /**
   * How the sentences' probabilities pool: 'mean' = the weighted mean above; 'max' = the strongest
   * single weighted judgement per side (max w·p / max w), which one clear rationale sentence is
   * enough for. Chosen on the development split; 'mean' when absent.
   */
  pooling?: 'mean' | 'max';
  /** A learned aggregator (learned.ts) that decides instead of the thresholds above when set. */
  learned?: LearnedAggregator | null;
}

export interface JudgedSentence {
  probs: NliProbs;
  /** Relevance of its result relative to the best result, in [0, 1]. */
  relevance: number;
  /** 2^(−age/h), 1 when the decay is off. */
  recency: number;
}

export interface Aggregate {
  label: VerdictLabel;
  confidence: number;
  support: number;
  refute: number;
  reason?: string;
}

/** The most probable label of one judgement. */
export function stanceOf(p: NliProbs): { stance: Stance; confidence: number } {
  if (p.entailment >= p.contradiction && p.entailment >= p.neutral) return { stance: 'supports', confidence: p.entailment };
  if (p.contradiction >= p.neutral) return { stance: 'refutes', confidence: p.contradiction };
  return { stance: 'neutral', confidence: p.neutral };
}

/**
 * A sentence's stance as the threshold rule counts it, so that the groups shown beside a verdict
 * explain it: supports / refutes when its own entailment, or contradiction multiplied by the refute
 * weight, reaches the abstention threshold (as in aggregate()); otherwise neutral, whatever its most
 * probable label. Weights only lower a sentence's share, so under max pooling a SUPPORTED or REFUTED
 * verdict always shows the sentence that decided it. The learned aggregator has no per-sentence
 * rule: the most probable label.
 */
export function stanceUnder(p: NliProbs, t: VerdictThresholds): { stance: Stance; confidence: number } {
  if (t.learned) return stanceOf(p);
  const support = p.entailment;
  const refute = Math.min(1, p.contradiction * (t.refuteWeight ?? 1));
  if (Math.max(support, refute) < t.minEvidence) return { stance: 'neutral', confidence: p.neutral };
  return support >= refute ? { stance: 'supports', confidence: p.entailment } : { stance: 'refutes', confidence: p.contradiction };
}

function learnedAggregate(judged: readonly JudgedSentence[], model: LearnedAggregator): Aggregate {
  const x = verdictFeatures(judged);
  if (!x) return { label: 'NOT_ENOUGH_EVIDENCE', confidence: 1, support: 0, refute: 0, reason: 'no evidence sentences to judge' };
  const p = learnedProbs(x, model);
  const k = p.indexOf(Math.max(...p));
  const label = LEARNED_LABELS[k]!;
  // support / refute as in the threshold rule (weighted means), for the breakdown.
  const support = round(x[1]!);
  const refute = round(x[2]!);
  const out: Aggregate = { label, confidence: round(p[k]!), support, refute };
  return label === 'NOT_ENOUGH_EVIDENCE' ? { ...out, reason: `the evidence is not conclusive (p = ${round(p[k]!)}; weighted support ${support}, refutation ${refute})` } : out;
}

export function aggregate(judged: readonly JudgedSentence[], t: VerdictThresholds): Aggregate {
  if (t.learned) return learnedAggregate(judged, t.learned);
  const max = t.pooling === 'max';
  let w = 0;
  let support = 0;
  let refute = 0;
  for (const j of judged) {
    const weight = Math.max(0, j.relevance) * Math.max(0, j.recency);
    if (max) {
      w = Math.max(w, weight);
      support = Math.max(support, weight * j.probs.entailment);
      refute = Math.max(refute, weight * j.probs.contradiction);
    } else {
      w += weight;
      support += weight * j.probs.entailment;
      refute += weight * j.probs.contradiction;
    }
  }
  if (!(w > 0)) return { label: 'NOT_ENOUGH_EVIDENCE', confidence: 1, support: 0, refute: 0, reason: 'no evidence sentences to judge' };
  support /= w;
  refute = Math.min(1, (refute / w) * (t.refuteWeight ?? 1));
  const strong = Math.max(support, refute);
  const weak = Math.min(support, refute);
  if (strong < t.minEvidence) {
    return { label: 'NOT_ENOUGH_EVIDENCE', confidence: round(1 - strong), support: round(support), refute: round(refute), reason: `weighted support ${round(support)} and refutation ${round(refute)} are both below ${t.minEvidence}` };
  }
  if (weak >= t.mixedRatio * strong) return { label: 'MIXED', confidence: round(support + refute), support: round(support), refute: round(refute) };
  return { label: support >= refute ? 'SUPPORTED' : 'REFUTED', confidence: round(strong), support: round(support), refute: round(refute) };
}

/** Evidence grouped by stance, strongest first within each group. */
export function groupByStance(items: readonly StanceEvidence[]): Verdict['evidence'] {
  const by = (s: Stance) => items.filter((e) => e.stance === s).sort((a, b) => b.weight - a.weight);
  return { supports: by('supports'), refutes: by('refutes'), neutral: by('neutral') };
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
