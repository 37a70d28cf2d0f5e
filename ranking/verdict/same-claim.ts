/**
 * Is a published fact-check's claim the same claim as the reader's? Same entities, numbers,
 * direction and polarity: the pair model reads each as evidence for the other (both ways), and the
 * details stage checks what a reader would — every detail of each stated by the other (names, amounts,
 * dates, direction, polarity), none contradicted, and most of each one's words stated by the other. "Hugh Grant married at 57" is not
 * "… at 67" (another number) nor "… divorced at 57" (a word the other does not state).
 */
import type { JudgeInput, Judgement } from './judge';
import { reasonFor } from './details/reasons';

/** Share of each claim's content (idf-weighted) the other must state. */
export const SAME_CLAIM_COVERAGE = 0.8;

export interface SameClaim {
  same: boolean;
  /** Why not, in a reader's words (empty when the same). */
  reason: string;
}

type Judge = { judge(claim: string, inputs: readonly (string | JudgeInput)[]): Promise<Judgement[]> };

/** Both directions' judgements → the decision (pure): every detail of each stated by the other, none contradicted. */
export function sameFrom(ab: Judgement, ba: Judgement): SameClaim {
  for (const j of [ab, ba]) {
    if (j.comparison.checks.some((c) => c.status === 'contradicted')) return { same: false, reason: reasonFor('refutes', j.comparison) };
  }
  for (const j of [ab, ba]) {
    const missing = j.comparison.checks.find((c) => c.status === 'unmentioned' && c.claim);
    if (missing || j.coverage < SAME_CLAIM_COVERAGE)
      return { same: false, reason: reasonFor('neutral', j.comparison, SAME_CLAIM_COVERAGE) };
  }
  if (ab.model.refutes >= 0.5 || ba.model.refutes >= 0.5) return { same: false, reason: 'reads as contradicting it' };
  if (ab.stance !== 'supports' && ba.stance !== 'supports') return { same: false, reason: 'does not say the same' };
  return { same: true, reason: '' };
}

export async function sameClaim(judge: Judge, a: string, b: string): Promise<SameClaim> {
  const [[ab], [ba]] = await Promise.all([judge.judge(a, [b]), judge.judge(b, [a])]);
  return sameFrom(ab!, ba!);
}
