/**
 * One short reason per evidence sentence, in a reader's words, naming the detail that decides it:
 * what contradicts ("Baghdad here, Basra in the claim"; "won here, defeated in the claim"), what
 * agrees ("states every detail: Hassan, kidnapped, Baghdad"), or what is missing ("does not mention
 * Basra"; "not about the claim's subject"). Written from the same comparison the decision reads
 * (compare.ts), from what fits the stance given — except that a sentence the model reads as support
 * while it states another value for one of the claim's details says so ("reads as supporting, but
 * Baghdad here, Basra in the claim"): verdict.json may leave the detail rule off, and a reason saying
 * "says the same" beside a detail marked as differing would mislead.
 */
import type { DetailCheck } from './checks';
import type { Comparison } from './compare';

export type ReasonStance = 'supports' | 'refutes' | 'neutral';

const MAX_LISTED = 4;
/** Which contradiction a reader is shown first: the one least likely to be a wording difference. */
const AGAINST_ORDER: DetailCheck['kind'][] = ['number', 'date', 'place', 'name', 'direction', 'roles', 'negation'];
const q = (s: string | undefined) => `'${(s ?? '').trim()}'`;

function against(c: DetailCheck): string {
  if (c.kind === 'roles') return `has the roles the other way round (${c.evidence})`;
  if (c.kind === 'negation')
    return c.claim ? `does not say ${q(c.claim)}: it states the opposite` : `says ${q(c.evidence)} where the claim does not`;
  if (c.kind === 'direction') return `${q(c.evidence)} here, ${q(c.claim)} in the claim`;
  return `${c.evidence} here, ${c.claim} in the claim`;
}

const listed = (words: string[]) => {
  const uniq = [...new Set(words.map((w) => w.trim()).filter(Boolean))];
  return uniq.length > MAX_LISTED ? `${uniq.slice(0, MAX_LISTED).join(', ')}, …` : uniq.join(', ');
};

/** The claim's own details the evidence states (not what it adds against the claim). */
const confirmedOf = (c: Comparison) => c.checks.filter((x) => x.status === 'confirmed' && x.claim);

/** The words both state, where the claim has no checkable detail: "says the same: economy, grew". */
function sameWords(c: Comparison): string[] {
  return c.alignment.links.filter((l) => l.relation && l.relation !== 'antonym' && l.relation !== 'hyponym').map((l) => l.claim.text);
}

function firstContradicted(c: Comparison): DetailCheck | undefined {
  for (const kind of AGAINST_ORDER) {
    const x = c.checks.find((k) => k.kind === kind && k.status === 'contradicted');
    if (x) return x;
  }
  return undefined;
}

export function reasonFor(stance: ReasonStance, c: Comparison, topic = 0.5): string {
  const contra = firstContradicted(c);
  if (stance === 'refutes') return contra ? against(contra) : 'reads as contradicting the claim, with no single detail to point at';
  if (stance === 'supports') {
    if (contra) return `reads as supporting, but ${against(contra)}`;
    const confirmed = confirmedOf(c);
    const own = c.checks.filter((x) => x.claim && x.kind !== 'roles');
    if (own.length && confirmed.length === own.length) return `states every detail: ${listed(confirmed.map((x) => x.claim))}`;
    const words = listed([...confirmed.map((x) => x.claim), ...sameWords(c)]);
    return words ? `says the same: ${words}` : 'says the same in other words';
  }
  const subject = c.claim.details.find((d) => d.name?.slot === 'subject');
  const named = !subject || c.checks.some((x) => x.claim === subject.text && x.status !== 'unmentioned');
  if (c.values.topic < topic && !named) return `not about ${[subject!.text, subject!.name!.head].filter(Boolean).join(' ')}`;
  const contradicted = c.checks.find((x) => x.status === 'contradicted');
  if (contradicted) return `about something else: ${against(contradicted)}`;
  const other = c.checks.find((x) => x.other);
  if (other) return `gives ${other.other} for something else, not ${other.claim}`;
  const missing = c.checks.find((x) => x.status === 'unmentioned' && x.claim);
  if (missing) return `does not mention ${missing.kind === 'direction' ? q(missing.claim) : missing.claim}`;
  if (c.values.topic < topic) return "not about the claim's subject";
  if (c.values.hedge_evidence && !c.values.hedge_claim) return 'does not state it as a fact';
  return 'on the topic, but does not settle the claim';
}
