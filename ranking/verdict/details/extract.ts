/**
 * A claim's checkable details: who (names by slot), where (places after "in", "at", "to", "from"),
 * how much (amounts, scores, ordinals, multiples, ranges, with their hedges), when (years, months,
 * weekdays), which way (direction and outcome words that have an opposite: rose/fell, cut/raised,
 * won/lost, convicted/acquitted) and whether it is negated. A false news claim usually differs from
 * the coverage in exactly one of these. Pure: the claim's units (align.ts) in, details out.
 */
import { DIRECTION, NEGATIONS, REVIEWED_ANTONYMS } from './cues';
import { contextOf, type Unit } from './words';
import type { Lexicon } from './lexicon';
import { amountsIn, type Amount } from './amounts';
import { namesIn, type Name } from './names';

export type DetailKind = 'name' | 'place' | 'number' | 'date' | 'direction' | 'negation';

export interface Detail {
  kind: DetailKind;
  /** As the claim writes it. */
  text: string;
  start: number;
  end: number;
  name?: Name;
  amount?: Amount;
  /** Dates: the month (1–12) or weekday (1–7) named. */
  month?: number;
  weekday?: number;
  /** Direction words: the unit, and for outcome words (win, beat, defeat) the outcome for the sentence's subject. */
  unit?: Unit;
  outcome?: 1 | -1;
  /** Content lemmas around the detail (what it is about: "interest rates" for "5.5%"). */
  context: string[];
}

export const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
export const WEEKDAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const MONTH =
  /^(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?$/i;
const WEEKDAY = /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;

/** Outcome words: +1 the subject won (active "beat", "defeated"), −1 it lost; passive voice turns a win verb round. */
const OUTCOME: Record<string, 1 | -1> = {
  win: 1,
  won: 1,
  wins: 1,
  beat: 1,
  beats: 1,
  beaten: 1,
  defeat: 1,
  defeated: 1,
  defeats: 1,
  ousted: 1,
  thrashed: 1,
  edged: 1,
  eliminated: 1,
  knocked: 1,
  overcame: 1,
  lose: -1,
  lost: -1,
  loses: -1,
  losing: -1,
};
const PASSIVE_AUX = new Set(['was', 'were', 'been', 'be', 'being', 'is', 'are', 'got', 'get']);

/** Is the word at unit index i an outcome word, and which way does it go for the subject? */
export function outcomeAt(units: readonly Unit[], i: number): 1 | -1 | undefined {
  const u = units[i];
  const sign = u && OUTCOME[u.lower];
  if (!sign) return undefined;
  // "was defeated", "were beaten": the subject lost.
  const passive = sign === 1 && PASSIVE_AUX.has(units[i - 1]?.lower ?? '') && u.lower !== 'won' && u.lower !== 'win';
  return passive ? -1 : sign;
}

/**
 * Is the word one whose opposite makes a claim false (a change or an outcome with a reviewed opposite:
 * rose/fell, convicted/acquitted, approved/rejected)? WordNet's antonyms alone are too many and too
 * loose for a detail ("new"/"old"); comparatives and particles ("more", "up") and words of time or
 * place ("before", "above") qualify something else.
 */
function hasOpposite(u: Unit, before: Unit | undefined): boolean {
  if (NOUN_READINGS.has(u.lower) && !PASSIVE_AUX.has(before?.lower ?? '')) return false;
  // A phrase is read by its own lemma ("vote down"), not its particle ("snapped up" is no "up").
  const lemmas = u.lower.includes(' ') ? u.lemmas.filter((l) => l.includes(' ')) : u.lemmas;
  return lemmas.some((l) => !NOT_DETAILS.has(l) && (DIRECTION[l] !== undefined || REVIEWED_ANTONYMS.has(l)));
}
/** Words whose noun is far more common than the verb they share a lemma with: "the OPEC meeting" meets no target; "is meeting its target" does. */
const NOUN_READINGS = new Set(['meeting', 'meetings']);
const NOT_DETAILS = new Set(
  'up down high low top more less fewer greater higher lower larger bigger smaller before after earlier later above below over under first last best worst lead ahead trail behind warm warming heat cool cold present presence absent absence back'.split(
    ' ',
  ),
);

/** A claim's own negation is said in so many words ("not", "never", "n't"); "halted" or "deferred" are checked as verbs. */
const isNegation = (u: Pick<Unit, 'lower'>) => NEGATIONS.has(u.lower) || u.lower.endsWith("n't");

const unitRange = (units: readonly Unit[], start: number, end: number): [number, number] => {
  const inside = units.map((u, i) => (u.start < end && start < u.end ? i : -1)).filter((i) => i >= 0);
  return inside.length ? [inside[0]!, inside.at(-1)!] : [0, -1];
};

function amountDetail(text: string, units: readonly Unit[], a: Amount): Detail {
  const [from, to] = unitRange(units, a.start, a.end);
  return {
    kind: a.kind === 'year' ? 'date' : 'number',
    text: a.text,
    start: a.start,
    end: a.end,
    amount: a,
    context: contextOf(units, from, to, 4),
  };
}

/** Months and weekdays named in a text ("in March", "on Tuesday"), as units. */
export function datesIn(units: readonly Unit[]): { unit: Unit; index: number; month?: number; weekday?: number }[] {
  const out: { unit: Unit; index: number; month?: number; weekday?: number }[] = [];
  units.forEach((u, index) => {
    // "may" is a month only when capitalised mid-sentence.
    if (MONTH.test(u.text) && (u.lower !== 'may' || u.cap))
      out.push({ unit: u, index, month: MONTH_NAMES.indexOf(u.lower.slice(0, 3)) + 1 });
    else if (WEEKDAY.test(u.text)) out.push({ unit: u, index, weekday: WEEKDAY_NAMES.indexOf(u.lower.slice(0, 3)) + 1 });
  });
  return out;
}

/** The claim's details, in reading order. */
export function claimDetails(text: string, units: readonly Unit[], lex: Lexicon): Detail[] {
  const out: Detail[] = [];
  const names = namesIn(text, units, lex);
  for (const n of names) {
    // "in Basra" is a place unless it names a person; "to Ladbroke" only when the tagger knows it as a place.
    const place =
      (n.slot === 'location' && n.type !== 'person') || ((n.slot === 'destination' || n.slot === 'origin') && n.type === 'place');
    out.push({
      kind: place ? 'place' : 'name',
      text: n.text,
      start: n.start,
      end: n.end,
      name: n,
      context: contextOf(units, n.index, n.index + n.words.length - 1, 4),
    });
  }
  const amounts = amountsIn(text);
  for (const a of amounts) out.push(amountDetail(text, units, a));
  for (const d of datesIn(units))
    out.push({
      kind: 'date',
      text: d.unit.text,
      start: d.unit.start,
      end: d.unit.end,
      month: d.month,
      weekday: d.weekday,
      context: contextOf(units, d.index, d.index, 4),
    });
  const taken = (u: Unit) => out.some((d) => d.start < u.end && u.start < d.end);
  units.forEach((u, i) => {
    if (u.stop || u.cap || taken(u)) return;
    // "less than an hour", "close to 30%": a bound on an amount, not a direction.
    const amountAfter = (k: number) =>
      !!units[k] && (units[k]!.digit || /^(a|an|half|one|two|three|four|five|six|seven|eight|nine|ten|\d.*)$/i.test(units[k]!.lower));
    if ((units[i + 1]?.lower === 'than' || units[i + 1]?.lower === 'to') && (amountAfter(i + 2) || amountAfter(i + 3))) return;
    const outcome = outcomeAt(units, i);
    if (outcome || hasOpposite(u, units[i - 1]))
      out.push({ kind: 'direction', text: u.text, start: u.start, end: u.end, unit: u, outcome, context: contextOf(units, i, i, 3) });
  });
  const neg = units.findIndex(isNegation);
  if (neg >= 0) {
    const u = units[neg]!;
    out.push({ kind: 'negation', text: u.text, start: u.start, end: u.end, unit: u, context: contextOf(units, neg, neg, 4) });
  }
  return out.sort((a, b) => a.start - b.start);
}
