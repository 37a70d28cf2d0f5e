/**
 * Names in a text (people, organisations, places, titles: the "who" and "where" a claim can get
 * wrong), each with the slot it fills: the subject before the claim's verb, the object after it, or a
 * place after "in", "at", "to" or "from". Capitalised words make a name; the first word of a sentence
 * and the words of a headline in Title Case only when WordNet does not know them or compromise's
 * tagger reads them as a person, place or organisation. Pure.
 */
import nlp from 'compromise';
import { isTitleCase, type Unit } from './words';
import type { Lexicon } from './lexicon';

export type NameType = 'person' | 'place' | 'org' | 'other';
export type Slot = 'subject' | 'object' | 'location' | 'destination' | 'origin' | 'agent' | 'other';

export interface Name {
  text: string;
  /** Lower-cased words, possessive "'s" dropped ("U2's Vertigo" → ["u2"], then ["vertigo"]). */
  words: string[];
  start: number;
  end: number;
  type: NameType;
  slot: Slot;
  /** Index of its first unit. */
  index: number;
  /** The noun it qualifies, which a text must state too ("landing" of "the Moon landing"). */
  head?: string;
}

const SLOT_OF: Record<string, Slot> = {
  in: 'location',
  at: 'location',
  near: 'location',
  outside: 'location',
  inside: 'location',
  across: 'location',
  throughout: 'location',
  to: 'destination',
  into: 'destination',
  for: 'destination',
  from: 'origin',
  by: 'agent',
};
/** Words that join the parts of one name ("Bank of England", "Procter & Gamble"). */
const JOINERS = new Set(['of', '&', 'de', 'du', 'van', 'von', 'al', 'bin']);
const MONTHS =
  /^(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?$/i;
const WEEKDAYS = /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;
/** Capitalised words that are no names: sentence openers and cue words of headlines. */
const NOT_NAMES = new Set(['the', 'a', 'an', 'mr', 'mrs', 'ms', 'dr', 'sir', 'i', 'it', 'he', 'she', 'they', 'we', 'this', 'that']);

const possessive = (s: string) => s.replace(/[’']s$/i, '');

interface Tagged {
  /** compromise's reading of each word that names something: a person, a place, an organisation. */
  types: Map<number, NameType>;
  /** Offsets of the words it reads as plain nouns (not verbs): "landing" in "the Moon landing". */
  nouns: Set<number>;
  /** Offsets of the words it reads as proper nouns ("Kinsey is up for…"), trusted for a sentence's first word only. */
  proper: Set<number>;
  /** Offsets of the words it reads as verbs: where the predicate begins. */
  verbs: Set<number>;
}

function tagged(text: string): Tagged {
  const types = new Map<number, NameType>();
  const nouns = new Set<number>();
  const doc = nlp(text);
  const offsets = (m: ReturnType<typeof doc.match>) =>
    (m.json({ offset: true }) as { terms: { offset: { start: number } }[] }[]).flatMap((t) => t.terms.map((x) => x.offset.start));
  const mark = (m: ReturnType<typeof doc.match>, type: NameType) => {
    for (const at of offsets(m)) if (!types.has(at)) types.set(at, type);
  };
  mark(doc.match('#Person'), 'person');
  mark(doc.match('#Organization'), 'org');
  mark(doc.match('#Place'), 'place');
  for (const at of offsets(doc.match('#Noun'))) nouns.add(at);
  for (const at of offsets(doc.match('(#Verb|#Pronoun|#Possessive)'))) nouns.delete(at);
  const proper = new Set(offsets(doc.match('#ProperNoun')));
  const verbs = new Set(offsets(doc.match('#Verb')));
  return { types, nouns, proper, verbs };
}

function isNameWord(
  u: Unit,
  i: number,
  units: readonly Unit[],
  lex: Lexicon,
  titleCase: boolean,
  tags: Tagged,
  known: ReadonlySet<string>,
): boolean {
  if (u.digit || u.stop || NOT_NAMES.has(u.lower) || MONTHS.test(u.text) || WEEKDAYS.test(u.text)) return false;
  // "U2", "G8", "MP3": letters and digits together are a name, not a number.
  if (/\p{L}/u.test(u.text) && /\d/.test(u.text) && /^\p{Lu}/u.test(u.text)) return true;
  if (!/^\p{Lu}/u.test(u.text)) return false;
  // Inflected forms are known by their lemma ("Gained", "Securities").
  const unknown = ![u.lower, possessive(u.lower), ...u.lemmas].some((l) => lex.known(l));
  if (titleCase || i === 0 || (i > 0 && /[:"“]$/.test(units[i - 1]!.text)))
    return unknown || tags.types.has(u.start) || known.has(possessive(u.lower)) || (!titleCase && i === 0 && tags.proper.has(u.start));
  return u.cap;
}

/** The slot a name at unit index `at` fills, from the word before it and its place around the verb. */
function slotOf(units: readonly Unit[], at: number, firstContent: number): Slot {
  const before = units[at - 1]?.lower ?? '';
  const before2 = units[at - 2]?.lower ?? '';
  const prep = SLOT_OF[before] ?? (before === 'the' ? SLOT_OF[before2] : undefined);
  if (prep) return prep;
  if (at <= firstContent) return 'subject';
  // Right after the verb ("beat Lazio", "named Jones"), or after its determiner, or after "was" + participle.
  const verbAt = at - (before === 'the' || before === 'a' ? 2 : 1);
  return verbAt === firstContent || verbAt === firstContent + 1 ? 'object' : 'other';
}

/** The names of a text, in reading order; `known`: words another text names (a first word "Bush" is a name when the claim names Bush). */
export function namesIn(text: string, units: readonly Unit[], lex: Lexicon, known: ReadonlySet<string> = new Set()): Name[] {
  const titleCase = isTitleCase(units as Unit[]);
  const tags = tagged(text);
  const flags = units.map((u, i) => isNameWord(u, i, units, lex, titleCase, tags, known));
  // Where the predicate begins: the first verb after a word (compromise's tags), else the first content word that is not a name.
  const verb = units.findIndex((u, i) => i > 0 && !flags[i] && tags.verbs.has(u.start));
  const firstContent = verb >= 0 ? verb : units.findIndex((u, i) => !flags[i] && !u.stop && !u.digit && /\p{L}/u.test(u.text) && i > 0);
  const out: Name[] = [];
  for (let i = 0; i < units.length;) {
    if (!flags[i]) {
      i++;
      continue;
    }
    let j = i + 1;
    // Extend through name words and joiners, but stop after a possessive ("U2's Vertigo" is two names).
    while (j < units.length && !/[’']s$/i.test(units[j - 1]!.text)) {
      if (flags[j]) j++;
      else if (JOINERS.has(units[j]!.lower) && flags[j + 1]) j += 2;
      else break;
    }
    const span = units.slice(i, j);
    const first = span[0]!;
    const last = span.at(-1)!;
    const types = span.map((u) => tags.types.get(u.start)).filter(Boolean) as NameType[];
    // A name that qualifies the noun after it is that thing, not the name: "the Moon landing", "the Vertigo tour".
    const next = units[j];
    const head =
      !titleCase && next && !next.stop && !next.cap && !/[’']s$/i.test(last.text) && tags.nouns.has(next.start) ? next : undefined;
    out.push({
      text: possessive(text.slice(first.start, last.end)),
      words: span.filter((u) => !JOINERS.has(u.lower)).map((u) => possessive(u.lower)),
      ...(head ? { head: head.lower } : {}),
      start: first.start,
      end: last.end,
      type: types[0] ?? 'other',
      slot: slotOf(units, i, firstContent < 0 ? units.length : firstContent),
      index: i,
    });
    i = j;
  }
  return out;
}

/** Does `b` name what `a` names: the same words, or one name's words all within the other's ("Hassan" / "Margaret Hassan")? */
export function sameName(a: Pick<Name, 'words'>, b: Pick<Name, 'words'>): boolean {
  const [short, long] = a.words.length <= b.words.length ? [a, b] : [b, a];
  return short.words.length > 0 && short.words.every((w) => long.words.includes(w));
}

/**
 * Is this name stated in the text: all its words, or its last word (a surname: "Hassan" for "Margaret
 * Hassan")? Words inside a longer name of the text count only as that name's last word, so "Moon"
 * is not stated by "Moon Jae-in", nor "Apple" by "Apple Daily".
 */
export function mentioned(name: Pick<Name, 'words' | 'head'>, units: readonly Unit[], textNames: readonly Name[] = []): boolean {
  const inLonger = (u: Unit) => textNames.find((n) => n.words.length > 1 && u.start >= n.start && u.end <= n.end);
  const words = new Set<string>();
  for (const u of units) {
    const longer = inLonger(u);
    if (longer && !name.words.every((w) => longer.words.includes(w)) && possessive(u.lower) !== longer.words.at(-1)) continue;
    for (const w of [u.lower, ...u.lower.split(' ')]) words.add(possessive(w));
  }
  if (name.head && !words.has(name.head) && !units.some((u) => u.lemmas.includes(name.head!))) return false;
  return name.words.every((w) => words.has(w)) || (name.words.length > 1 && words.has(name.words.at(-1)!));
}

/** Can two names fill the same slot (a person for a person, a place for a place; unknown types match anything but a person/place clash)? */
export function compatible(a: NameType, b: NameType): boolean {
  return a === b || a === 'other' || b === 'other';
}
