/**
 * One evidence text against a claim's details: for each detail, whether the text confirms it (states
 * the same name, amount, date or direction), contradicts it (states another value in the same slot:
 * another place for the same event, another score, another year, the opposite direction, the other
 * polarity) or does not mention it; and how much of the claim the text is about at all (`topic`: a
 * sentence takes a stance only when it is on the claim's subject). Pure.
 */
import { contextOf, covered, type Alignment, type Unit } from './words';
import { HEDGES, NEGATIONS, NEGATIVE_VERBS } from './cues';
import { EQUIVALENT, type Lexicon } from './lexicon';
import { agreesAmount, amountsIn, comparableAmounts, type Amount } from './amounts';
import { datesIn, outcomeAt, type Detail } from './extract';
import { compatible, mentioned, namesIn, sameName, type Name, type Slot } from './names';

export type DetailStatus = 'confirmed' | 'contradicted' | 'unmentioned';
/** What a check is about: a claim detail, or what the evidence adds against it (roles swapped, a negation). */
export type CheckKind = Detail['kind'] | 'roles';

export interface DetailCheck {
  kind: CheckKind;
  status: DetailStatus;
  /** The claim's words, and the evidence's where it states something (the same or another value). */
  claim: string;
  evidence?: string;
  /** Numbers: an amount of the same kind stated for something else (not a contradiction, but not support either). */
  other?: string;
}

export interface EvidenceView {
  units: readonly Unit[];
  names: Name[];
  amounts: Amount[];
  text: string;
}

/** Words that make two names' order meaningless or an agent of the second ("A and B", "… by X"). */
const PLACE_SLOTS: ReadonlySet<Slot> = new Set(['location', 'destination', 'origin']);
const isNegation = (u: Pick<Unit, 'lower'>) => NEGATIONS.has(u.lower) || NEGATIVE_VERBS.has(u.lower) || u.lower.endsWith("n't");
const unitIndexAt = (units: readonly Unit[], start: number) => units.findIndex((u) => u.start <= start && start < u.end);

/** The evidence's names, amounts and words; a first word the claim names ("Bush defeated…") is a name too. */
export function evidenceView(text: string, units: readonly Unit[], lex: Lexicon, claimNames: readonly Name[] = []): EvidenceView {
  const known = new Set(claimNames.flatMap((n) => n.words));
  return { units, names: namesIn(text, units, lex, known), amounts: amountsIn(text), text };
}

/** The claim's subject is the evidence's agent in the passive ("Ballmer unveiled it" / "it was unveiled by Bill Gates"). */
function sameSlot(claim: Slot, evidence: Slot): boolean {
  if (claim === 'other') return false;
  if (claim === evidence) return true;
  return (claim === 'subject' && evidence === 'agent') || (claim === 'agent' && evidence === 'subject');
}

/** Share (idf-weighted) of the claim's words outside names that the evidence states: is it about the same event? */
export function predicateCoverage(a: Alignment): number {
  const plain = a.links.filter((l) => !l.claim.cap);
  const total = plain.reduce((s, l) => s + l.idf, 0);
  if (!total) return 1;
  return plain.filter((l) => l.relation && (EQUIVALENT.has(l.relation) || l.relation === 'antonym')).reduce((s, l) => s + l.idf, 0) / total;
}

/** The content word before a name's preposition ("kidnapped" in "kidnapped in Basra"): the event the place belongs to. */
function eventWordOf(units: readonly Unit[], name: Name): Unit | undefined {
  for (let i = name.index - 2; i >= Math.max(0, name.index - 4); i--) {
    const u = units[i];
    if (u && !u.stop && !u.cap && !u.digit) return u;
  }
  return undefined;
}

/** The evidence word the claim's event word is matched with, if any ("abducted" for "kidnapped"). */
function eventLink(a: Alignment, name: Name): Unit | undefined {
  const u = eventWordOf(a.claim, name);
  const link = u && a.links.find((l) => l.claim.index === u.index);
  return link?.relation && EQUIVALENT.has(link.relation) ? link.evidence! : undefined;
}

function checkName(d: Detail, a: Alignment, ev: EvidenceView, claimNames: readonly Name[], predicate: number): DetailCheck {
  const name = d.name!;
  if (mentioned(name, ev.units, ev.names)) return { kind: d.kind, status: 'confirmed', claim: d.text, evidence: name.text };
  const place = d.kind === 'place';
  const rivals = ev.names.filter(
    (m) =>
      // The same slot: another place for the event, another subject or object for the predicate.
      sameSlot(name.slot, m.slot) &&
      compatible(name.type, m.type) &&
      !claimNames.some((c) => sameName(c, m)) &&
      !mentioned(m, a.claim, claimNames),
  );
  // Another name fills the slot of the same event: "abducted in Baghdad" for "kidnapped in Basra" (the place
  // of that event, where the sentence names several: not "operations in Iraq").
  const event = place ? eventLink(a, name) : undefined;
  const anchored = place ? !!event || predicate >= 0.5 : predicate >= 0.6;
  const ofEvent = event && rivals.find((m) => eventWordOf(ev.units, m)?.index === event.index);
  if (rivals.length && anchored) return { kind: d.kind, status: 'contradicted', claim: d.text, evidence: (ofEvent ?? rivals.at(-1)!).text };
  return { kind: d.kind, status: 'unmentioned', claim: d.text };
}

/** The evidence amount a claim amount is about: one of the same kind whose surrounding words share a word with the claim's. */
function checkAmount(d: Detail, ev: EvidenceView, predicate: number, soleOfKind: boolean): DetailCheck {
  const claim = d.amount!;
  const same = ev.amounts.find((e) => agreesAmount(claim, e));
  if (same) return { kind: d.kind, status: 'confirmed', claim: d.text, evidence: same.text };
  // A change ("up by 20p") compares with a change, a level ("to £5.05") with a level.
  const comparable = ev.amounts.filter((e) => comparableAmounts(claim, e) && !!claim.change === !!e.change);
  if (!comparable.length) return { kind: d.kind, status: 'unmentioned', claim: d.text };
  // A year stated differently is another year for the event; other amounts must count the same thing.
  if (claim.kind === 'year') return { kind: d.kind, status: 'contradicted', claim: d.text, evidence: comparable[0]!.text };
  const want = new Set(d.context);
  const anchored = comparable.find((e) => {
    const i = unitIndexAt(ev.units, e.start);
    const j = unitIndexAt(ev.units, Math.max(e.start, e.end - 1));
    return i >= 0 && contextOf(ev.units, i, Math.max(i, j), 5).some((l) => want.has(l));
  });
  if (anchored) return { kind: d.kind, status: 'contradicted', claim: d.text, evidence: anchored.text };
  // One amount of the kind on each side, in a text about the same event: "stopped for two minutes" / "a halt for five minutes".
  if (soleOfKind && comparable.length === 1 && predicate >= 0.5)
    return { kind: d.kind, status: 'contradicted', claim: d.text, evidence: comparable[0]!.text };
  return { kind: d.kind, status: 'unmentioned', claim: d.text, other: comparable[0]!.text };
}

function checkDate(d: Detail, ev: EvidenceView, predicate: number): DetailCheck {
  if (d.amount) return checkAmount(d, ev, predicate, false);
  const dates = datesIn(ev.units).filter((x) => (d.month ? x.month : x.weekday));
  if (!dates.length) return { kind: d.kind, status: 'unmentioned', claim: d.text };
  const same = dates.find((x) => (d.month ? x.month === d.month : x.weekday === d.weekday));
  if (same) return { kind: d.kind, status: 'confirmed', claim: d.text, evidence: same.unit.text };
  const want = new Set(d.context);
  const anchored = dates.find((x) => contextOf(ev.units, x.index, x.index, 5).some((l) => want.has(l)));
  return anchored
    ? { kind: d.kind, status: 'contradicted', claim: d.text, evidence: anchored.unit.text }
    : { kind: d.kind, status: 'unmentioned', claim: d.text, other: dates[0]!.unit.text };
}

/** The name an outcome word at index i is said of: the nearest name before it (within 8 words). */
function subjectBefore(names: readonly Name[], i: number): Name | undefined {
  return [...names].reverse().find((n) => n.index < i && i - n.index <= 8);
}

function checkDirection(d: Detail, a: Alignment, ev: EvidenceView, claimNames: readonly Name[]): DetailCheck {
  const u = d.unit!;
  if (d.outcome) {
    // Only who takes part can win or lose: not the place or the competition ("in the Uefa Cup").
    const parties = claimNames.filter((n) => !PLACE_SLOTS.has(n.slot));
    const claimSubject = subjectBefore(parties, u.index);
    const others = parties.filter((n) => n !== claimSubject);
    for (let i = 0; i < ev.units.length; i++) {
      const sign = outcomeAt(ev.units, i);
      // Who won or lost: a name before the word in a party's slot (not "of the Qatar Open", not a place).
      const evParties = ev.names.filter(
        (m) => m.slot !== 'other' && !PLACE_SLOTS.has(m.slot) && !claimNames.some((c) => PLACE_SLOTS.has(c.slot) && sameName(c, m)),
      );
      const subject = sign && subjectBefore(evParties, i);
      if (!sign || !subject || !claimSubject) continue;
      // "Kerry was defeated by Bush" for "Bush beat Kerry": the other side with the other outcome agrees.
      const same = sameName(subject, claimSubject)
        ? sign === d.outcome
        : others.some((o) => sameName(o, subject))
          ? sign !== d.outcome
          : null;
      if (same === null) continue;
      return { kind: 'direction', status: same ? 'confirmed' : 'contradicted', claim: d.text, evidence: ev.units[i]!.text };
    }
  }
  const link = a.links.find((l) => l.claim.index === u.index);
  if (link?.relation === 'antonym' && converse(u, link.evidence!, claimNames, ev))
    return { kind: 'direction', status: 'confirmed', claim: d.text, evidence: link.evidence!.text };
  if (link?.relation === 'antonym') return { kind: 'direction', status: 'contradicted', claim: d.text, evidence: link.evidence!.text };
  if (link?.relation && EQUIVALENT.has(link.relation))
    return { kind: 'direction', status: 'confirmed', claim: d.text, evidence: link.evidence!.text };
  return { kind: 'direction', status: 'unmentioned', claim: d.text };
}

/** Verbs whose opposite with the parties swapped says the same: "X sold it to Y" = "Y bought it from X". */
const CONVERSE = new Set(['buy', 'sell', 'purchase', 'acquire', 'lend', 'borrow', 'give', 'receive', 'sold', 'bought', 'lent', 'gave']);

/** The opposite verb with the claim's first party after it in the evidence and another party before it. */
function converse(c: Unit, e: Unit, claimNames: readonly Name[], ev: EvidenceView): boolean {
  if (!c.lemmas.some((l) => CONVERSE.has(l)) || !e.lemmas.some((l) => CONVERSE.has(l))) return false;
  // The buyer and the seller ("to Ladbroke", "from Carlton" are parties here, not places).
  const parties = claimNames.filter((n) => n.slot !== 'location');
  const first = subjectBefore(parties, c.index) ?? parties[0];
  const at = (n: Name) => ev.names.find((m) => sameName(m, n))?.index;
  const firstAt = first && at(first);
  return firstAt !== undefined && firstAt > e.index && parties.some((p) => p !== first && (at(p) ?? Infinity) < e.index);
}

/** Negations of `units` within 4 words before one of the words both texts share (a verb or noun of the claim's, not a name: "never" in a quote beside "Hanks" negates nothing of his). */
function negationNear(units: readonly Unit[], anchors: readonly number[]): Unit | undefined {
  return units.find((u) => isNegation(u) && anchors.some((i) => i >= u.index && i - u.index <= 4));
}

/** The claim's negation, or one the evidence puts on what both state: either way round it is a detail checked. */
function checkPolarity(d: Detail | undefined, a: Alignment, predicate: number): DetailCheck | null {
  const cov = covered(a).filter((l) => !l.claim.cap);
  const negC = negationNear(
    a.claim,
    cov.map((l) => l.claim.index),
  );
  const negE = negationNear(
    a.evidence,
    cov.map((l) => l.evidence!.index),
  );
  if (d) {
    if (negE) return { kind: 'negation', status: 'confirmed', claim: d.text, evidence: negE.text };
    return predicate >= 0.5 && negC
      ? { kind: 'negation', status: 'contradicted', claim: d.text }
      : { kind: 'negation', status: 'unmentioned', claim: d.text };
  }
  // The evidence says "not" about what the claim states: "was not convicted" for "was convicted".
  if (negE && !negC && predicate >= 0.5) return { kind: 'negation', status: 'contradicted', claim: '', evidence: negE.text };
  return null;
}

/** Is this the claim's only amount of its kind? */
function soleOfKind(d: Detail, details: readonly Detail[]): boolean {
  return details.filter((x) => x.amount && comparableAmounts(x.amount, d.amount!)).length === 1;
}

export interface Checked {
  checks: DetailCheck[];
  /** Share of the claim's words (idf-weighted) the evidence addresses: states, opposes, or fills with another name. */
  topic: number;
  /** Share of the claim's words outside names it states or opposes. */
  predicate: number;
  hedgeEvidence: boolean;
}

export function checkDetails(
  details: readonly Detail[],
  a: Alignment,
  ev: EvidenceView,
  claimNames: readonly Name[],
  roles: string | null,
): Checked {
  const predicate = predicateCoverage(a);
  const checks: DetailCheck[] = [];
  const filled: Detail[] = [];
  for (const d of details) {
    let c: DetailCheck | null = null;
    if (d.kind === 'name' || d.kind === 'place') c = checkName(d, a, ev, claimNames, predicate);
    else if (d.kind === 'number') c = checkAmount(d, ev, predicate, soleOfKind(d, details));
    else if (d.kind === 'date') c = checkDate(d, ev, predicate);
    else if (d.kind === 'direction') c = checkDirection(d, a, ev, claimNames);
    if (!c) continue;
    checks.push(c);
    if (d.name && c.status !== 'unmentioned') filled.push(d);
  }
  const polarity = checkPolarity(
    details.find((d) => d.kind === 'negation'),
    a,
    predicate,
  );
  if (polarity) checks.push(polarity);
  if (roles) checks.push({ kind: 'roles', status: 'contradicted', claim: '', evidence: roles });
  // A text that does not name the claim's subject (nor another in its place) is about something else: it counts half.
  const subject = details.find((d) => d.name?.slot === 'subject');
  const aboutSubject = !subject || filled.includes(subject);
  const topic =
    topicOf(
      a,
      details.filter((d) => d.name),
      filled,
    ) * (aboutSubject ? 1 : 0.5);
  return { checks, topic, predicate, hedgeEvidence: ev.units.some((u) => HEDGES.has(u.lower)) };
}

/** The claim's words the evidence addresses (idf-weighted): stated, opposed, or a name slot filled by another name. */
function topicOf(a: Alignment, names: readonly Detail[], filled: readonly Detail[]): number {
  const total = a.links.reduce((s, l) => s + l.idf, 0);
  if (!total) return 0;
  const inFilled = (u: Unit) => filled.some((d) => u.start >= d.start && u.end <= d.end);
  const inName = (u: Unit) => names.some((d) => u.start >= d.start && u.end <= d.end);
  // A name's word found inside another name ("Moon" of "Moon Jae-in" for "the Moon landing") is not the claim's name.
  const addressed = a.links.filter((l) =>
    inName(l.claim) ? inFilled(l.claim) : !!l.relation && (EQUIVALENT.has(l.relation) || l.relation === 'antonym'),
  );
  return addressed.reduce((s, l) => s + l.idf, 0) / total;
}
