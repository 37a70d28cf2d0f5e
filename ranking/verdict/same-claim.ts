/**
 * Is a published fact-check's claim the same claim as the reader's? Same entities, numbers,
 * direction and polarity: the pair model reads each as evidence for the other (both ways), and the
 * alignment checks what a reader would — every content word of each stated by the other, no other
 * name, amount or year, no opposite, no negation on one side only. "Hugh Grant married at 57" is not
 * "… at 67" (another number) nor "… divorced at 57" (a word the other does not state).
 */
import type { JudgeInput, Judgement } from './judge';
import { againstCue } from './judge';
import { reasonFor } from './align/reasons';

/** Share of each claim's content (idf-weighted) the other must state. */
export const SAME_CLAIM_COVERAGE = 0.8;

export interface SameClaim {
  same: boolean;
  /** Why not, in a reader's words (empty when the same). */
  reason: string;
}

type Judge = { judge(claim: string, inputs: readonly (string | JudgeInput)[]): Promise<Judgement[]> };

/** Both directions' judgements → the decision (pure). */
export function sameFrom(ab: Judgement, ba: Judgement): SameClaim {
  for (const j of [ab, ba]) {
    const against =
      againstCue(j.features) ?? j.features.cues.find((c) => ['number', 'name', 'opposite', 'roles', 'negation'].includes(c.kind));
    if (against) return { same: false, reason: reasonFor('refutes', [against]) };
  }
  for (const j of [ab, ba]) {
    if (j.coverage < SAME_CLAIM_COVERAGE) return { same: false, reason: reasonFor('neutral', j.features.cues) };
  }
  if (ab.model.refutes >= 0.5 || ba.model.refutes >= 0.5) return { same: false, reason: 'reads as contradicting it' };
  if (ab.stance !== 'supports' && ba.stance !== 'supports') return { same: false, reason: 'does not say the same' };
  return { same: true, reason: '' };
}

export async function sameClaim(judge: Judge, a: string, b: string): Promise<SameClaim> {
  const [[ab], [ba]] = await Promise.all([judge.judge(a, [b]), judge.judge(b, [a])]);
  return sameFrom(ab!, ba!);
}
