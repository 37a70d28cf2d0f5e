/**
 * Natural-language-inference classifier: (premise = evidence, hypothesis = claim) → probabilities of
 * entailment, contradiction and neutral. The label order is read from config.json id2label, in any
 * order and casing (and the FEVER/SciFact spellings SUPPORTS / REFUTES / NOT_ENOUGH_INFO).
 */
import { createError } from '../errors';
import { softmax } from './pooling';
import { floatOutput } from './ort-session';
import { TextModel, type TextModelOptions } from './text-model';

export type NliLabel = 'entailment' | 'contradiction' | 'neutral';
export type NliProbs = Record<NliLabel, number>;

const SYNONYMS: Record<string, NliLabel> = {
  entailment: 'entailment',
  entails: 'entailment',
  support: 'entailment',
  supports: 'entailment',
  contradiction: 'contradiction',
  contradicts: 'contradiction',
  contradict: 'contradiction',
  refute: 'contradiction',
  refutes: 'contradiction',
  neutral: 'neutral',
  not_enough_info: 'neutral',
  nei: 'neutral',
  not_entailment: 'neutral',
};

/** Index of each NLI label in the model's output. */
export function nliLabelIndex(labels: string[]): Record<NliLabel, number> {
  const found: Partial<Record<NliLabel, number>> = {};
  labels.forEach((raw, i) => {
    const key = SYNONYMS[raw.trim().toLowerCase().replace(/[\s-]+/g, '_')];
    if (key === undefined) return;
    if (found[key] !== undefined) throw createError('MODEL_INVALID', `config.json id2label names ${key} twice (${labels.join(', ')})`);
    found[key] = i;
  });
  const missing = (['entailment', 'contradiction', 'neutral'] as const).filter((k) => found[k] === undefined);
  if (missing.length) throw createError('MODEL_INVALID', `config.json id2label must name entailment, contradiction and neutral; missing ${missing.join(', ')} (has ${labels.join(', ') || 'none'})`);
  return found as Record<NliLabel, number>;
}

export class NliClassifier {
  private constructor(
    readonly model: TextModel,
    readonly index: Record<NliLabel, number>,
  ) {}

  get id(): string {
    return this.model.id;
  }

  static async load(dir: string, opts: TextModelOptions = {}): Promise<NliClassifier> {
    // One pair a call: an int8 model quantises its activations per call, with one scale across every
    // row, so in a batch a pair's probabilities would move (by up to 0.06 here) with the pairs read
    // beside it; alone, each pair reads the same whatever else is judged (and as training measured it),
    // at about the same cost (no padding to the longest pair).
    const model = await TextModel.load(dir, { ...opts, batchSize: 1 });
    try {
      return new NliClassifier(model, nliLabelIndex(model.folder.labels));
    } catch (e) {
      await model.close();
      throw e;
    }
  }

  /** One probability triple per (premise, hypothesis) pair. */
  async classify(pairs: [premise: string, hypothesis: string][]): Promise<NliProbs[]> {
    if (pairs.length === 0) return [];
    const n = this.model.folder.labels.length;
    return this.model.map(pairs, (out, enc) => {
      const { data } = floatOutput(out, 'logits');
      return Array.from({ length: enc.batch }, (_, b) => {
        const p = softmax(data.subarray(b * n, (b + 1) * n));
        return { entailment: p[this.index.entailment]!, contradiction: p[this.index.contradiction]!, neutral: p[this.index.neutral]! };
      });
    });
  }

  close(): Promise<void> {
    return this.model.close();
  }
}
