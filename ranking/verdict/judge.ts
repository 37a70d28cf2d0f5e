/**
 * Per-sentence stance: how one evidence sentence (or passage) bears on the claim, with a reason a
 * reader can check.
 *
 * Two readings of the pair are combined. The NLI model (ours, or any supplied Hugging Face NLI model)
 * reads the claim against the sentence — given, when the sentence refers back ("the firm", "they"),
 * with its article's title and the sentence before — and gives P(supports / refutes / neither). The
 * details stage (details/compare.ts) checks the claim's details one by one against the same text:
 * which it confirms, which it contradicts (another place for the same event, another score, the
 * opposite outcome), which it does not mention, and how much of the claim the text is about at all.
 * The reading (verdict.json `reading`, fitted on held-out pairs by train_verdict.py) weighs the two
 * into one P(supports / refutes / neither): data decides how much a changed detail counts, not a
 * hand-set override. Relevance comes before stance: a text about less of the claim than `topic`
 * takes no stance at all ("Moon Jae-in" is no evidence on the Moon landing). With `details` on, a
 * sentence that contradicts one of the claim's details is never read as supporting it. The reason
 * shown names the detail that decides it and never argues against the stance given.
 */
import type { NliClassifier, NliProbs } from '../../lib/models';
import type { Lexicon } from './details/lexicon';
import { stanceOf, type StanceProbs } from './decide';
import { compare, DETAIL_FEATURES, prepareClaim, type Comparison, type PreparedClaim } from './details/compare';
import type { Detail } from './details/extract';
import { reasonFor } from './details/reasons';

export interface Judgement {
  /** The reading: the model and the details combined, after relevance and the detail rule. */
  probs: StanceProbs;
  /** The model's own probabilities. */
  model: StanceProbs;
  /** Share of the claim the sentence is about (details/checks.ts topic), in [0, 1]. */
  coverage: number;
  comparison: Comparison;
  /** The most probable stance, and a reason for it in a reader's words. */
  stance: keyof StanceProbs;
  reason: string;
}

/** A sentence to judge, with what it needs to be read alone (its article's title and the sentence before). */
export interface JudgeInput {
  sentence: string;
  context?: string;
}

/** What the reading combiner reads: the model's probabilities, the details' features and two interactions. */
export const READING_FEATURES = ['sup', 'ref', 'neu', ...DETAIL_FEATURES, 'sup_x_contra', 'ref_x_confirmed'] as const;
export type ReadingFeature = (typeof READING_FEATURES)[number];

export interface Reading {
  /** A multinomial logistic regression over READING_FEATURES (rows: supports, refutes, neither); absent = the model alone. */
  combiner?: { features: string[]; coef: number[][]; intercept: number[] };
  /** A text about less of the claim than this (topic) takes no stance. */
  topic: number;
  /** A sentence contradicting one of the claim's details never reads as supporting it. */
  details: boolean;
}

/** Without a fitted verdict.json (a supplied NLI model): the model alone, on-topic text only, the detail rule on. */
export const DEFAULT_READING: Reading = { topic: 0.5, details: true };

const NEITHER: StanceProbs = { supports: 0, refutes: 0, neutral: 1 };

export function readingInputs(m: StanceProbs, c: Pick<Comparison, 'values'>): Record<ReadingFeature, number> {
  const v = c.values;
  const contra = Math.max(
    v.contra_name,
    v.contra_place,
    v.contra_number,
    v.contra_date,
    v.contra_direction,
    v.contra_negation,
    v.contra_roles,
  );
  return {
    sup: m.supports,
    ref: m.refutes,
    neu: m.neutral,
    ...v,
    sup_x_contra: m.supports * contra,
    ref_x_confirmed: m.refutes * v.all_confirmed,
  };
}

function softmax(z: readonly number[]): number[] {
  const top = Math.max(...z);
  const e = z.map((x) => Math.exp(x - top));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

/** Whether any of the claim's own details (or its roles, or its polarity) is contradicted. */
export const contradicts = (c: Pick<Comparison, 'checks'>) => c.checks.some((x) => x.status === 'contradicted');

/** The reading of one pair: combined, then relevance before stance, then the detail rule. */
export function read(m: StanceProbs, c: Comparison, r: Reading): StanceProbs {
  return readPair(m, c.values, contradicts(c), r);
}

/** read() from the comparison's numbers (pure; train_verdict.py mirrors it, a parity fixture checks both). */
export function readPair(m: StanceProbs, values: Comparison['values'], contradicted: boolean, r: Reading): StanceProbs {
  if (values.topic < r.topic) return NEITHER;
  let p = m;
  if (r.combiner) {
    const x = readingInputs(m, { values });
    const { features, coef, intercept } = r.combiner;
    const z = coef.map((w, k) => intercept[k]! + w.reduce((s, wi, i) => s + wi * (x[features[i] as ReadingFeature] ?? 0), 0));
    const [s, f, n] = softmax(z);
    p = { supports: s!, refutes: f!, neutral: n! };
  }
  // A changed detail is never support; otherwise the sentence reads as it was read (its refutes : neither odds kept).
  if (r.details && contradicted) {
    const rest = p.refutes + p.neutral;
    return rest > 0 ? { supports: 0, refutes: p.refutes / rest, neutral: p.neutral / rest } : { supports: 0, refutes: 1, neutral: 0 };
  }
  return p;
}

export const mostProbable = stanceOf;

const fromNli = (n: NliProbs): StanceProbs => ({ supports: n.entailment, refutes: n.contradiction, neutral: n.neutral });
export const premiseOf = (x: JudgeInput) => (x.context ? `${x.context} ${x.sentence}` : x.sentence);

export class StanceJudge {
  private prepared: PreparedClaim | undefined;

  constructor(
    private readonly nli: Pick<NliClassifier, 'id' | 'classify'>,
    private readonly lexicon: Lexicon,
    readonly reading: Reading = DEFAULT_READING,
  ) {}

  get id(): string {
    return this.nli.id;
  }

  /**
   * The same judge for evidence whose relevance is given (a labelled pair, a claim's gold rationale):
   * no topic gate, since the gate answers whether retrieved text is about the claim at all.
   */
  givenEvidence(): StanceJudge {
    return new StanceJudge(this.nli, this.lexicon, { ...this.reading, topic: 0 });
  }

  /** The model's probabilities only (no details), e.g. for the passages of a fact-check. */
  async modelProbs(claim: string, inputs: readonly JudgeInput[]): Promise<StanceProbs[]> {
    if (!inputs.length) return [];
    return (await this.nli.classify(inputs.map((x) => [premiseOf(x), claim]))).map(fromNli);
  }

  /** The claim's details, once per claim (a claim is compared with every sentence read). */
  private claimOf(claim: string): PreparedClaim {
    if (this.prepared?.text !== claim) this.prepared = prepareClaim(claim, this.lexicon);
    return this.prepared;
  }

  /** The claim's checkable details. */
  details(claim: string): Detail[] {
    return this.claimOf(claim).details;
  }

  /** The details' comparison of the claim with each input (cheap: no model). */
  compare(claim: string, inputs: readonly JudgeInput[]): Comparison[] {
    const prepared = this.claimOf(claim);
    return inputs.map((x) => compare(prepared, premiseOf(x), this.lexicon));
  }

  /** Full judgements; `known` reuses model probabilities already computed for these inputs. */
  async judge(claim: string, raw: readonly (string | JudgeInput)[], known?: readonly StanceProbs[]): Promise<Judgement[]> {
    const inputs = raw.map((x) => (typeof x === 'string' ? { sentence: x } : x));
    const model = known ?? (await this.modelProbs(claim, inputs));
    const comparisons = this.compare(claim, inputs);
    return inputs.map((_, i) => {
      const comparison = comparisons[i]!;
      const m = model[i]!;
      const probs = read(m, comparison, this.reading);
      const stance = mostProbable(probs);
      return { probs, model: m, coverage: comparison.topic, comparison, stance, reason: reasonFor(stance, comparison, this.reading.topic) };
    });
  }
}
