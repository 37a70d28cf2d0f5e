/**
 * The stance classifier: alignment features (+ the NLI model's log-probabilities when it was fitted
 * with them) → probabilities of supports / refutes / neither. Two forms, both fitted by
 * training/stance/train_verdict.py and stored as JSON (stance.json): a multinomial logistic
 * regression, or gradient-boosted trees (sklearn's HistGradientBoosting, exported node by node).
 * The file names its inputs; they are read by name (`stanceInput`), and a file naming an input the
 * code does not compute is refused when it is loaded (`checkStanceModel`).
 */
import { z } from 'zod';
import { createError } from '../../../lib/errors';
import { STANCE_FEATURES, type StanceFeature, type StanceFeatures } from './features';

export const STANCE_CLASSES = ['supports', 'refutes', 'neutral'] as const;
export type StanceClass = (typeof STANCE_CLASSES)[number];
export type StanceProbs = Record<StanceClass, number>;

const Node = z.tuple([
  z.number().int(), // feature index, −1 for a leaf
  z.number(), // threshold (go left when x ≤ threshold), or the leaf's value
  z.number().int(), // left child
  z.number().int(), // right child
  z.number().int(), // 1 when a missing value goes left
]);

const Logistic = z.object({
  kind: z.literal('logistic'),
  coef: z.array(z.array(z.number())).length(3),
  intercept: z.array(z.number()).length(3),
});
const Trees = z.object({
  kind: z.literal('gbdt'),
  baseline: z.array(z.number()).length(3),
  /** trees[iteration][class] = nodes, root first */
  trees: z.array(z.array(z.array(Node).min(1)).length(3)),
});

export const StanceModelFile = z.object({
  /** The feature names in order (ranking/verdict/align/features.ts STANCE_FEATURES), then 'nli_*' when it reads the NLI model. */
  features: z.array(z.string()).min(1),
  /** The NLI model whose probabilities it was trained on, when it reads them. */
  nli: z.string().nullable(),
  model: z.discriminatedUnion('kind', [Logistic, Trees]),
});
export type StanceModel = z.infer<typeof StanceModelFile>;

function softmax3(z: readonly number[]): StanceProbs {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e[0]! + e[1]! + e[2]!;
  return { supports: e[0]! / s, refutes: e[1]! / s, neutral: e[2]! / s };
}

function tree(nodes: readonly (readonly [number, number, number, number, number])[], x: readonly number[]): number {
  let i = 0;
  for (let guard = 0; guard < nodes.length; guard++) {
    const [f, t, left, right, missingLeft] = nodes[i]!;
    if (f < 0) return t;
    const v = x[f]!;
    i = Number.isNaN(v) ? (missingLeft ? left : right) : v <= t ? left : right;
  }
  throw new Error('stance model: a tree has a cycle');
}

/** The NLI model's log-probabilities, as a stance classifier reads them (floored, so a 0 stays finite). */
export const NLI_INPUTS = ['nli_e', 'nli_c', 'nli_n'] as const;
const LOG_FLOOR = 1e-4;
const KNOWN = new Set<string>([...STANCE_FEATURES, ...NLI_INPUTS]);

/** A stance.json whose inputs the code computes, else MODEL_INVALID naming the ones it does not. */
export function checkStanceModel(model: StanceModel, file = 'stance.json'): StanceModel {
  const unknown = model.features.filter((f) => !KNOWN.has(f));
  if (unknown.length) throw createError('MODEL_INVALID', `${file}: inputs the code does not compute: ${unknown.join(', ')}`);
  const readsNli = model.features.some((f) => (NLI_INPUTS as readonly string[]).includes(f));
  if (readsNli !== (model.nli !== null))
    throw createError('MODEL_INVALID', `${file}: reads the NLI model's probabilities only when it names the model (nli)`);
  return model;
}

/** The classifier's input vector, in the file's order, each value looked up by its name. */
export function stanceInput(model: StanceModel, f: StanceFeatures, p: StanceProbs): number[] {
  const nli: Record<(typeof NLI_INPUTS)[number], number> = { nli_e: p.supports, nli_c: p.refutes, nli_n: p.neutral };
  return model.features.map((name) =>
    name in nli ? Math.log(Math.max(LOG_FLOOR, nli[name as keyof typeof nli])) : f.values[name as StanceFeature],
  );
}

/** Probabilities of the three stances for one feature vector (in `model.features` order). */
export function classify(model: StanceModel, x: readonly number[]): StanceProbs {
  if (x.length !== model.features.length) throw new Error(`stance model reads ${model.features.length} features, got ${x.length}`);
  const m = model.model;
  if (m.kind === 'logistic') return softmax3(m.coef.map((w, k) => m.intercept[k]! + w.reduce((s, wi, i) => s + wi * x[i]!, 0)));
  const raw = [...m.baseline];
  for (const it of m.trees) for (let k = 0; k < 3; k++) raw[k]! += tree(it[k]!, x);
  return softmax3(raw);
}
