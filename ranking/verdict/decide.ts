/**
 * From judged evidence sentences to one claim-level verdict with a calibrated probability (pure).
 *
 * The claim's features pool the sentences' stance probabilities, each sentence weighed by its
 * result's relevance (relative to the best result, before the time decay) × recency: the strongest
 * weighted support and refutation, their weighted means, the top result's, how many sentences lean
 * each way, and how much of the claim the best sentence covers. A multinomial logistic regression
 * fitted by cross-validation (training/stance/train_verdict.py, verdict.json) turns them into
 * P(SUPPORTED), P(REFUTED), P(NOT_ENOUGH_EVIDENCE).
 *
 * Abstention: a verdict commits only when its probability reaches `commit` (REFUTED: `commitRefuted`,
 * higher) and a shown item reads that way, thresholds chosen for precision (a confident wrong "Refuted" costs a reader more than an
 * honest "not enough evidence");
 * otherwise NOT_ENOUGH_EVIDENCE, with the evidence still shown. MIXED: strong sentences on both sides
 * (each ≥ `mixed`) while neither side commits alone.
 *
 * Without a fitted verdict.json (a supplied NLI model) the rule is the pooled maximum: the side
 * whose strongest weighted sentence probability reaches `commit` wins.
 */
import { z } from 'zod';
import { createError } from '../../lib/errors';
import type { VerdictLabel } from '../types';

export type StanceProbs = Record<'supports' | 'refutes' | 'neutral', number>;

export const CLAIM_FEATURES = [
  'max_sup',
  'max_ref',
  'mean_sup',
  'mean_ref',
  'top_sup',
  'top_ref',
  'max_cov',
  'n_sup',
  'n_ref',
  'conflict',
  'max_contra',
  'max_sure_contra',
  'max_confirmed',
  'max_sure_name',
  'max_sure_place',
  'max_sure_number',
  'max_sure_date',
  'max_sure_direction',
  'max_sure_negation',
] as const;

/** The kinds of contradicted detail the decision weighs apart (claimFeatures max_sure_<kind>). */
export const CONTRA_KINDS = ['name', 'place', 'number', 'date', 'direction', 'negation'] as const;

export interface JudgedItem {
  probs: StanceProbs;
  /** Relevance of its result relative to the best result, before the time decay, in [0, 1]. */
  relevance: number;
  /** 2^(−age/h); 1 when the decay is off. */
  recency: number;
  /** 0-based rank of its result. */
  rank: number;
  /** Alignment coverage of the claim by the sentence. */
  coverage: number;
  /**
   * The details (stage.ts claimCues): a detail of the claim contradicted, and every detail stated,
   * each × how much of the claim the text is about. Absent = 0 (a supplied judge without them).
   */
  cues?: { contra: number; sure: number; confirmed: number; kinds?: Partial<Record<(typeof CONTRA_KINDS)[number], number>> };
}

const Combiner = z.object({
  /** The reading features each coefficient column reads, by name (judge.ts READING_FEATURES). */
  features: z.array(z.string()).min(1),
  /** Rows: supports, refutes, neither. */
  coef: z.array(z.array(z.number())).length(3),
  intercept: z.array(z.number()).length(3),
});

export const AggregatorFile = z.object({
  version: z.literal(5),
  /** Results read, sentences read per result, and items judged and shown, that the aggregator was fitted on. */
  depth: z.number().int().min(1).max(100),
  sentences: z.number().int().min(1).max(10),
  /** Whether each result's read sentences are also read together, as one passage. */
  passages: z.boolean(),
  judged: z.number().int().min(1).max(50),
  /** How each sentence is read (judge.ts Reading): the model and the details combined, the topic a stance needs, the detail rule. */
  reading: z.object({
    combiner: Combiner.optional(),
    topic: z.number().min(0).max(1),
    details: z.boolean(),
  }),
  /** The claim features each coefficient column reads, by name (CLAIM_FEATURES). */
  features: z.array(z.string()).min(1),
  /** Rows: SUPPORTED, REFUTED, NOT_ENOUGH_EVIDENCE. */
  coef: z.array(z.array(z.number())).length(3),
  intercept: z.array(z.number()).length(3),
  commit: z.number().min(0).max(1),
  /** REFUTED's own threshold (higher: a wrong "Refuted" costs more); absent = `commit`. */
  commit_refuted: z.number().min(0).max(1).optional(),
  /** REFUTED's threshold when a shown contradicting sentence states another value for one of the claim's details; absent = `commit_refuted`. */
  commit_refuted_detail: z.number().min(0).max(1).optional(),
  mixed: z.number().min(0).max(1),
  fitted: z.record(z.string(), z.unknown()).optional(),
});
export type Aggregator = z.infer<typeof AggregatorFile>;

/** A verdict.json whose features the code computes and whose rows fit them, else MODEL_INVALID. */
export function checkAggregator(agg: Aggregator, file = 'verdict.json', readingFeatures: readonly string[] = []): Aggregator {
  const check = (what: string, names: readonly string[], known: readonly string[], coef: readonly (readonly number[])[]) => {
    const unknown = names.filter((f) => !known.includes(f));
    if (unknown.length) throw createError('MODEL_INVALID', `${file}: ${what} features the code does not compute: ${unknown.join(', ')}`);
    if (coef.some((row) => row.length !== names.length))
      throw createError('MODEL_INVALID', `${file}: each ${what} coefficient row needs one weight per feature (${names.length})`);
  };
  check('claim', agg.features, CLAIM_FEATURES, agg.coef);
  const c = agg.reading.combiner;
  if (c) check('reading', c.features, readingFeatures, c.coef);
  return agg;
}

export interface Decision {
  label: VerdictLabel;
  confidence: number;
  probabilities: Record<VerdictLabel, number>;
  reason?: string;
}

const weightOf = (j: JudgedItem) => Math.max(0, j.relevance) * Math.max(0, j.recency);
const round = (x: number) => Math.round(x * 1e4) / 1e4;
const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The claim-level features, in CLAIM_FEATURES order (train_verdict.py computes the same; a parity test checks it). */
export function claimFeatures(items: readonly JudgedItem[]): number[] {
  if (!items.length) return CLAIM_FEATURES.map(() => 0);
  let maxW = 0;
  let maxSup = 0;
  let maxRef = 0;
  let sumW = 0;
  let sumSup = 0;
  let sumRef = 0;
  for (const j of items) {
    const w = weightOf(j);
    maxW = Math.max(maxW, w);
    maxSup = Math.max(maxSup, w * j.probs.supports);
    maxRef = Math.max(maxRef, w * j.probs.refutes);
    sumW += w;
    sumSup += w * j.probs.supports;
    sumRef += w * j.probs.refutes;
  }
  const top = items.filter((j) => j.rank === Math.min(...items.map((x) => x.rank)));
  const sup = maxW > 0 ? maxSup / maxW : 0;
  const ref = maxW > 0 ? maxRef / maxW : 0;
  const cue = (k: 'contra' | 'sure' | 'confirmed') => Math.max(...items.map((j) => j.cues?.[k] ?? 0));
  return [
    sup,
    ref,
    sumW > 0 ? sumSup / sumW : 0,
    sumW > 0 ? sumRef / sumW : 0,
    Math.max(...top.map((j) => j.probs.supports)),
    Math.max(...top.map((j) => j.probs.refutes)),
    Math.max(...items.map((j) => j.coverage)),
    items.filter((j) => j.probs.supports > 0.5).length / items.length,
    items.filter((j) => j.probs.refutes > 0.5).length / items.length,
    sup * ref,
    cue('contra'),
    cue('sure'),
    cue('confirmed'),
    ...CONTRA_KINDS.map((k) => Math.max(...items.map((j) => j.cues?.kinds?.[k] ?? 0))),
  ];
}

function softmax(z: readonly number[]): number[] {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

function probabilities(items: readonly JudgedItem[], agg: Aggregator): [number, number, number] {
  const all = claimFeatures(items);
  const x = agg.features.map((name) => all[(CLAIM_FEATURES as readonly string[]).indexOf(name)] ?? 0);
  const p = softmax(agg.coef.map((w, k) => agg.intercept[k]! + w.reduce((s, wi, i) => s + wi * (x[i] ?? 0), 0)));
  return [p[0]!, p[1]!, p[2]!];
}

/** The strongest single weighted sentence per side (the rule without a fitted aggregator). */
function pooledMax(items: readonly JudgedItem[]): [number, number, number] {
  const [sup, ref] = claimFeatures(items);
  return [sup!, ref!, Math.max(0, 1 - Math.max(sup!, ref!))];
}

export interface DecideSettings {
  /** Probability SUPPORTED needs to commit. */
  commit: number;
  /** Probability REFUTED needs to commit (default `commit`). */
  commitRefuted?: number;
  /** Probability REFUTED needs when a shown contradicting item contradicts a detail of the claim (default `commitRefuted`). */
  commitRefutedDetail?: number;
  mixed: number;
}

/** The stance an item is read as: its most probable class (ties to supports, then refutes). */
export function stanceOf(p: StanceProbs): keyof StanceProbs {
  if (p.supports >= p.refutes && p.supports >= p.neutral) return 'supports';
  return p.refutes >= p.neutral ? 'refutes' : 'neutral';
}

/**
 * A verdict never contradicts what it shows: a side commits only when a shown item is read that way
 * (SUPPORTED with a supporting item, REFUTED with a refuting one, MIXED with both); otherwise the
 * claim has not enough evidence, whatever the pooled probability says.
 */
export function decide(items: readonly JudgedItem[], agg: Aggregator | null, s: DecideSettings): Decision {
  if (!items.length) {
    return {
      label: 'NOT_ENOUGH_EVIDENCE',
      confidence: 1,
      probabilities: { SUPPORTED: 0, REFUTED: 0, MIXED: 0, NOT_ENOUGH_EVIDENCE: 1 },
      reason: 'no evidence sentences to judge',
    };
  }
  const [ps, pr, pn] = agg ? probabilities(items, agg) : pooledMax(items);
  const probs = { SUPPORTED: round(ps), REFUTED: round(pr), MIXED: 0, NOT_ENOUGH_EVIDENCE: round(pn) };
  const shown = {
    SUPPORTED: items.some((j) => stanceOf(j.probs) === 'supports'),
    REFUTED: items.some((j) => stanceOf(j.probs) === 'refutes'),
  };
  const side = ps >= pr ? 'SUPPORTED' : 'REFUTED';
  const strong = Math.max(ps, pr);
  // A contradiction the reader can point at (another value for one of the claim's details) needs less.
  const detailShown = items.some((j) => stanceOf(j.probs) === 'refutes' && (j.cues?.contra ?? 0) > 0);
  const refutedBar = detailShown ? (s.commitRefutedDetail ?? s.commitRefuted ?? s.commit) : (s.commitRefuted ?? s.commit);
  const bar = side === 'REFUTED' ? refutedBar : s.commit;
  if (strong >= bar && strong >= pn && shown[side]) return { label: side, confidence: round(strong), probabilities: probs };
  const [maxSup, maxRef] = claimFeatures(items);
  if (maxSup! >= s.mixed && maxRef! >= s.mixed && ps + pr >= s.commit && shown.SUPPORTED && shown.REFUTED) {
    return { label: 'MIXED', confidence: round(ps + pr), probabilities: { ...probs, MIXED: round(ps + pr) } };
  }
  const lean = side === 'SUPPORTED' ? 'towards the claim' : 'against the claim';
  const reason =
    strong >= bar && strong >= pn
      ? `the evidence leans ${lean} (${pct(strong)}), but no sentence shown ${side === 'SUPPORTED' ? 'supports' : 'contradicts'} it on its own`
      : strong >= pn
        ? `the evidence leans ${lean} (${pct(strong)}), below the ${pct(bar)} a verdict needs`
        : `no evidence sentence settles the claim (${pct(pn)} that there is not enough evidence)`;
  return { label: 'NOT_ENOUGH_EVIDENCE', confidence: round(Math.max(pn, 1 - strong)), probabilities: probs, reason };
}
