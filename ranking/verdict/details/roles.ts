/**
 * Two names of the claim the other way round in the sentence: "X beat Y" / "Y beat X", "Ladbroke bought
 * … from Carlton" / "Carlton purchased … from Ladbroke". Pure: an alignment in, the two links out.
 */
import type { Alignment, Link, Unit } from './words';

/** Words that make two names' order meaningless ("A and B", "A drew with B", "A met B"). */
const SYMMETRIC = new Set(
  'and or between versus vs v & met meet meets meeting drew draw draws tied tie ties merged merge merges merger talks talked played play faced face married marry'.split(
    ' ',
  ),
);
const CLAIM_SPAN = 10;
const EVIDENCE_SPAN = 15;

/** Is there a role-bearing word between positions i < j (a content word that is not a name), and nothing symmetric? */
function predicateBetween(units: readonly Unit[], i: number, j: number): boolean {
  const between = units.filter((u) => u.index > i && u.index < j);
  return between.some((u) => !u.stop && !u.cap && !u.digit) && !between.some((u) => SYMMETRIC.has(u.lower));
}

/**
 * "X beat Y" / "Y beat X", "Ladbroke bought … from Carlton" / "Carlton purchased … from Ladbroke": two
 * names of the claim that the sentence states too, each side with a predicate between them, in the
 * opposite order in the sentence. Not for passives ("Y was beaten by X", "Y confirmed with the aid
 * of X"), nor where an opposite word sits between them ("X sold to Y" = "Y bought from X").
 */
export function roleSwap(a: Alignment): [Link, Link] | null {
  const names = a.links.filter((l) => l.claim.cap && l.evidence && (l.relation === 'exact' || l.relation === 'lemma'));
  for (const x of names) {
    for (const y of names) {
      const [cx, cy, ex, ey] = [x.claim.index, y.claim.index, x.evidence!.index, y.evidence!.index];
      if (!(cx < cy && cy - cx <= CLAIM_SPAN && ey < ex && ex - ey <= EVIDENCE_SPAN)) continue;
      if (!predicateBetween(a.claim, cx, cy) || !predicateBetween(a.evidence, ey, ex)) continue;
      if (a.links.some((l) => l.relation === 'antonym' && l.claim.index > cx && l.claim.index < cy)) continue;
      // "… by X", "with the aid of X": the sentence's second name is an agent after all.
      if (/^(by|of)$/.test(a.evidence.find((u) => u.index === ex - 1)?.lower ?? '')) continue;
      return [x, y];
    }
  }
  return null;
}
