/**
 * Per-sentence stance: how one evidence sentence (or passage) bears on the claim, with a reason a
 * reader can check.
 *
 * The model decides, the alignment explains. The NLI model (ours, or any supplied Hugging Face NLI
 * model) reads the claim against the sentence — given, when the sentence refers back to something
 * ("the firm", "they"), with its article's title and the sentence before — and gives P(supports /
 * refutes / neither). Where the decision's fitted file says so (verdict.json `rule`, kept only where it
 * measurably helped on held-out pairs), one override of the alignment's cues then holds whatever the
 * model says: a sentence about another subject, another year, or — where it otherwise states the claim
 * — another amount, the opposite word or the roles reversed (`againstCue`) is evidence against or
 * neither, never for. The reason shown is drawn from the cues that fit the stance given, so it never
 * argues against it.
 */
import type { NliClassifier, NliProbs } from '../../lib/models';
import { align } from './align/align';
import { stanceOf, type StanceProbs } from './decide';
import { stanceFeatures, type Cue, type StanceFeatures } from './align/features';
import type { Lexicon } from './align/lexicon';
import { reasonFor } from './align/reasons';

export interface Judgement {
  probs: StanceProbs;
  /** The model's own probabilities, before the rule. */
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

export const mostProbable = stanceOf;

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
  constructor(
    private readonly nli: Pick<NliClassifier, 'id' | 'classify'>,
    private readonly lexicon: Lexicon,
    /** Whether the cue override applies (neverFor). */
    readonly rule: boolean,
  ) {}

  get id(): string {
    return this.nli.id;
  }

  /** The model's probabilities only (cheap: no alignment), e.g. to choose which sentences to judge in full. */
  async modelProbs(claim: string, inputs: readonly JudgeInput[]): Promise<StanceProbs[]> {
    if (!inputs.length) return [];
    return (await this.nli.classify(inputs.map((x) => [premiseOf(x), claim]))).map(fromNli);
  }

  /** Full judgements; `known` reuses model probabilities already computed for these inputs. */
  async judge(claim: string, raw: readonly (string | JudgeInput)[], known?: readonly StanceProbs[]): Promise<Judgement[]> {
    const inputs = raw.map((x) => (typeof x === 'string' ? { sentence: x } : x));
    const model = known ?? (await this.modelProbs(claim, inputs));
    return inputs.map((x, i) => {
      const features = stanceFeatures(align(claim, premiseOf(x), this.lexicon));
      const m = model[i]!;
      const probs = this.rule ? neverFor(m, features) : m;
      const stance = mostProbable(probs);
      return { probs, model: m, coverage: features.values.cov, features, stance, reason: reasonFor(stance, features.cues) };
    });
  }
}
