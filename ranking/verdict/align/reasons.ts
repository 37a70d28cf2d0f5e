/**
 * One short reason per evidence sentence, in a reader's words, from the alignment cues that fit the
 * stance the sentence was given: what contradicts ("says 'widened' where the claim says 'narrowed'",
 * "0.4% here, 4% in the claim", "names Dementieva where the claim says Myskina"), what agrees
 * ("says the same: economy, grew, 0.4%"), or what is missing ("does not mention 'profit'").
 */
import type { Cue } from './features';

export type ReasonStance = 'supports' | 'refutes' | 'neutral';

const q = (s: string | undefined) => `'${(s ?? '').trim()}'`;
const MAX_SAME = 4;

const AGAINST: Record<string, (c: Cue) => string> = {
  opposite: (c) => `says ${q(c.evidence)} where the claim says ${q(c.claim)}`,
  number: (c) => `${c.evidence} here, ${c.claim} in the claim`,
  year: (c) => `${c.evidence} here, ${c.claim} in the claim`,
  name: (c) => `names ${c.evidence} where the claim says ${c.claim}`,
  subject: (c) => `is about ${c.evidence}, not ${c.claim}`,
  absent: (c) => `does not name ${c.claim}`,
  roles: (c) => `has the roles the other way round (${c.evidence})`,
  negation: (c) => (c.claim ? `the claim says ${q(c.claim)}; this sentence does not` : `says ${q(c.evidence)} where the claim does not`),
};
const AGAINST_ORDER = ['opposite', 'number', 'year', 'roles', 'name', 'subject', 'negation'];

function sameWords(cues: readonly Cue[]): string | null {
  const same =
    cues
      .find((c) => c.kind === 'same')
      ?.claim?.split(', ')
      .filter(Boolean) ?? [];
  const numbers = cues.filter((c) => c.kind === 'number_same').map((c) => c.evidence!);
  const words = [...new Set([...same, ...numbers])];
  if (!words.length) return null;
  return words.length > MAX_SAME ? `${words.slice(0, MAX_SAME).join(', ')}, …` : words.join(', ');
}

/** Cues that say a sentence is about another name, amount or year: "neither" sentences name them first. */
const ELSEWHERE = ['subject', 'name', 'number', 'year'];

export function reasonFor(stance: ReasonStance, cues: readonly Cue[]): string {
  if (stance === 'refutes') {
    for (const kind of AGAINST_ORDER) {
      const c = cues.find((x) => x.kind === kind);
      if (c) return AGAINST[kind]!(c);
    }
    return 'reads as contradicting the claim, with no single word to point at';
  }
  if (stance === 'supports') {
    // Only what agrees: a supporting sentence's reason never argues against it.
    const same = sameWords(cues);
    return same ? `says the same: ${same}` : 'says the same in other words';
  }
  for (const kind of ELSEWHERE) {
    const c = cues.find((x) => x.kind === kind);
    if (c) return `about something else: ${AGAINST[kind]!(c)}`;
  }
  const absent = cues.find((c) => c.kind === 'absent');
  if (absent) return `does not name ${absent.claim}`;
  const hedge = cues.find((c) => c.kind === 'hedge');
  if (hedge) return `does not state it as a fact (${q(hedge.evidence)})`;
  const missing = cues.find((c) => c.kind === 'missing');
  if (missing) return `does not mention ${q(missing.claim)}`;
  return 'on the topic, but does not settle the claim';
}
