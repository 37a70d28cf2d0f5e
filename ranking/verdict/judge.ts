/**
 * Per-sentence stance: how one evidence sentence bears on the claim, with a reason a reader can check.
 *
 * The model decides, the alignment explains. The NLI model (our pair model, or any supplied Hugging
 * Face NLI model) reads the claim against the sentence — given, when the sentence refers back to
 * something ("the firm", "they"), with its article's title and the sentence before — and gives
 * P(supports / refutes / neither). Where the folder has a stance.json fitted for that model, it
 * combines the model's log-probabilities with the alignment features (align/); else the model's
 * probabilities stand. One rule then holds whatever the model says: a sentence about another subject,
 * another year, or — where it otherwise states the claim — another amount, the opposite word or the
 * roles reversed (the alignment's cues, `againstCue`) is evidence against or neither, never for: its
 * support goes to "neither". The reason shown is drawn from the cues that fit the stance given, so it never argues
 * against it.
 */
import crypto from 'node:crypto';
import type { NliClassifier, NliProbs } from '../../lib/models';
import { align } from './align/align';
import { classify, stanceInput, type StanceModel, type StanceProbs } from './align/classifier';
import { stanceFeatures, type Cue, type StanceFeatures } from './align/features';
import type { Lexicon } from './align/lexicon';
import { reasonFor } from './align/reasons';

export interface Judgement {
  probs: StanceProbs;
  /** The model's own probabilities, before the fitted combination and the rule. */
  model: StanceProbs;
  /** Coverage of the claim's content by the sentence (alignment), in [0, 1]. */
  coverage: number;
  features: StanceFeatures;
  /** The most probable stance, and a reason for it in a reader's words. */
  stance: keyof StanceProbs;
  reason: string;
}

/** A sentence to judge, with what it needs to be read alone (its article's title and the sentence before). */
export interface JudgeInput {
  sentence: string;
  context?: string;
}

/**
 * When the alignment's cues are reliable enough to overrule the model's support (measured on held-out
 * pairs, training/stance/train_verdict.py): another year; another subject ("Kinsey…" / "Sideways…");
 * another amount, the roles reversed or an opposite word where the sentence otherwise states most of
 * the claim. (A name missing while others are present, on its own, is as common in supporting
 * sentences as in refuting ones: it gives a reason, not a verdict.)
 */
export function againstCue(f: Pick<StanceFeatures, 'cues' | 'values'>): Cue | undefined {
  const cov = f.values.cov;
  const of = (kind: Cue['kind']) => f.cues.find((c) => c.kind === kind);
  return (
    of('subject') ?? of('year') ?? (cov >= 0.6 ? (of('number') ?? of('roles')) : undefined) ?? (cov >= 0.75 ? of('opposite') : undefined)
  );
}

export function mostProbable(p: StanceProbs): keyof StanceProbs {
  if (p.supports >= p.refutes && p.supports >= p.neutral) return 'supports';
  return p.refutes >= p.neutral ? 'refutes' : 'neutral';
}

/**
 * The rule above: a sentence with such a cue keeps none of its support (it goes to "neither"); one
 * about another subject altogether is neither for nor against ("Floella Benjamin was awarded…" says
 * nothing of Molyneux).
 */
export function neverFor(p: StanceProbs, f: Pick<StanceFeatures, 'cues' | 'values'>): StanceProbs {
  const cue = againstCue(f);
  if (!cue) return p;
  if (cue.kind === 'subject') return { supports: 0, refutes: 0, neutral: 1 };
  return { supports: 0, refutes: p.refutes, neutral: p.neutral + p.supports };
}

const fromNli = (n: NliProbs): StanceProbs => ({ supports: n.entailment, refutes: n.contradiction, neutral: n.neutral });
export const premiseOf = (x: JudgeInput) => (x.context ? `${x.context} ${x.sentence}` : x.sentence);

export class StanceJudge {
  private alignId: string | undefined;
  constructor(
    private readonly nli: Pick<NliClassifier, 'id' | 'classify'>,
    private readonly lexicon: Lexicon,
    /** The stance classifier fitted for this NLI model (or for the alignment alone), or null (the model decides alone). */
    readonly model: StanceModel | null,
  ) {
    if (model?.nli && model.nli !== nli.id) throw new Error(`stance.json was fitted for ${model.nli}, not ${nli.id}`);
  }

  /** The NLI model's id; "+align" with a stance classifier that reads it; quin-align@hash for one that reads the alignment only. */
  get id(): string {
    if (!this.model) return this.nli.id;
    if (this.model.nli) return `${this.nli.id}+align`;
    this.alignId ??= `quin-align@${crypto.createHash('sha256').update(JSON.stringify(this.model.model)).digest('hex').slice(0, 8)}`;
    return this.alignId;
  }

  /** Whether the NLI model is read at all (a stance classifier fitted on the alignment alone spares its run). */
  get readsModel(): boolean {
    return !this.model || this.model.nli !== null;
  }

  /** The model's probabilities only (cheap: no alignment), e.g. to choose which sentences to judge in full. */
  async modelProbs(claim: string, inputs: readonly JudgeInput[]): Promise<StanceProbs[]> {
    if (!inputs.length) return [];
    if (!this.readsModel) return inputs.map(() => ({ supports: 1 / 3, refutes: 1 / 3, neutral: 1 / 3 }));
    return (await this.nli.classify(inputs.map((x) => [premiseOf(x), claim]))).map(fromNli);
  }

  /** Full judgements; `known` reuses model probabilities already computed for these inputs. */
  async judge(claim: string, raw: readonly (string | JudgeInput)[], known?: readonly StanceProbs[]): Promise<Judgement[]> {
    const inputs = raw.map((x) => (typeof x === 'string' ? { sentence: x } : x));
    const model = known ?? (await this.modelProbs(claim, inputs));
    return inputs.map((x, i) => {
      const features = stanceFeatures(align(claim, premiseOf(x), this.lexicon));
      const m = model[i]!;
      const fitted = this.model ? classify(this.model, stanceInput(this.model, features, m)) : m;
      const probs = neverFor(fitted, features);
      const stance = mostProbable(probs);
      return { probs, model: m, coverage: features.values.cov, features, stance, reason: reasonFor(stance, features.cues) };
    });
  }
}
