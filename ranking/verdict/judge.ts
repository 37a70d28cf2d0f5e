/**
 * Per-sentence stance: how one evidence sentence bears on the claim, with a reason a reader can check.
 *
 * Every sentence is aligned to the claim (align/). With the NLI folder's stance classifier
 * (stance.json, fitted by training/stance/train_verdict.py) the alignment features decide, together
 * with the NLI model's log-probabilities when the classifier was fitted on them; a supplied NLI model
 * without one decides alone.
 * Either way the reason comes from the alignment cues that fit the stance given.
 */
import crypto from 'node:crypto';
import type { NliClassifier } from '../../lib/models';
import { align } from './align/align';
import { classify, type StanceModel, type StanceProbs } from './align/classifier';
import { featureVector, stanceFeatures, type StanceFeatures } from './align/features';
import type { Lexicon } from './align/lexicon';
import { reasonFor } from './align/reasons';

export interface Judgement {
  probs: StanceProbs;
  /** Coverage of the claim's content by the sentence (alignment), in [0, 1]. */
  coverage: number;
  features: StanceFeatures;
  /** The most probable stance, and a reason for it in a reader's words. */
  stance: keyof StanceProbs;
  reason: string;
}

const LOG_FLOOR = 1e-4;

export function mostProbable(p: StanceProbs): keyof StanceProbs {
  if (p.supports >= p.refutes && p.supports >= p.neutral) return 'supports';
  return p.refutes >= p.neutral ? 'refutes' : 'neutral';
}

export class StanceJudge {
  private alignId: string | undefined;
  constructor(
    private readonly nli: Pick<NliClassifier, 'id' | 'classify'>,
    private readonly lexicon: Lexicon,
    /** The stance classifier fitted for this NLI model, or null (the NLI model decides alone). */
    readonly model: StanceModel | null,
  ) {
    if (model?.nli && model.nli !== nli.id) throw new Error(`stance.json was fitted for ${model.nli}, not ${nli.id}`);
  }

  /** The NLI model's id; with a stance classifier, "+align" (or, when it reads no NLI model, quin-align@ its weights' hash). */
  get id(): string {
    if (!this.model) return this.nli.id;
    if (this.model.nli) return `${this.nli.id}+align`;
    this.alignId ??= `quin-align@${crypto.createHash('sha256').update(JSON.stringify(this.model.model)).digest('hex').slice(0, 8)}`;
    return this.alignId;
  }

  async judge(claim: string, sentences: readonly string[]): Promise<Judgement[]> {
    if (!sentences.length) return [];
    // A stance classifier that does not read the NLI model's probabilities spares the model's run.
    const reads = !this.model || this.model.nli !== null;
    const nli = reads
      ? await this.nli.classify(sentences.map((s) => [s, claim]))
      : sentences.map(() => ({ entailment: 0, contradiction: 0, neutral: 1 }));
    return sentences.map((s, i) => {
      const features = stanceFeatures(align(claim, s, this.lexicon));
      const n = nli[i]!;
      let probs: StanceProbs = { supports: n.entailment, refutes: n.contradiction, neutral: n.neutral };
      if (this.model) {
        const logs = this.model.nli ? [n.entailment, n.contradiction, n.neutral].map((p) => Math.log(Math.max(LOG_FLOOR, p))) : [];
        probs = classify(this.model, [...featureVector(features), ...logs]);
      }
      const stance = mostProbable(probs);
      return { probs, coverage: features.values.cov, features, stance, reason: reasonFor(stance, features.cues) };
    });
  }
}
