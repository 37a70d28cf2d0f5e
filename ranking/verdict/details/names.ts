/**
 * Names in a text (people, organisations, places, titles: the "who" and "where" a claim can get
 * wrong), each with the slot it fills: the subject before the claim's verb, the object after it, or a
 * place after "in", "at", "to" or "from". Capitalised words make a name; the first word of a sentence
 * and the words of a headline in Title Case only when WordNet does not know them or compromise's
 * tagger reads them as a person, place or organisation. Pure.
 */
import nlp from 'compromise';
import { isTitleCase, type Unit } from './words';
import { NEGATIONS } from './cues';
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
  /** Its last word alone names it (a person's surname, a word WordNet does not know: "Hassan", not "University"). */
  distinctive?: boolean;
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
const DETERMINERS = new Set(['the', 'a', 'an', 'this', 'that', 'its', 'his', 'her', 'their', 'our', 'my', 'your']);
const JOINERS = new Set(['of', '&', 'de', 'du', 'van', 'von', 'al', 'bin']);
const MONTHS =
  /^(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?$/i;
const WEEKDAYS = /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;
/** Capitalised words that are no names: sentence openers and cue words of headlines. */
/** Capitalised words that are no names: openers, pronouns, and titles before a name ("Rep. Martha McSally"). */
const NOT_NAMES = new Set(
  'the a an i it he she they we you this that these those his her their its yet and but so mr mrs ms dr sir lord lady rep sen gov gen col lt sgt capt prof rev president senator governor minister chancellor secretary general'.split(
    ' ',
  ),
);

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
  /** Offsets of the words it reads as adjectives ("Scottish"). */
  adjectives: Set<number>;
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
  const adjectives = new Set(offsets(doc.match('(#Adjective|#Demonym)')));
  return { types, nouns, proper, verbs, adjectives };
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
  if (u.digit || u.stop || NOT_NAMES.has(possessive(u.lower)) || MONTHS.test(u.text) || WEEKDAYS.test(u.text)) return false;
  // A nationality is an adjective, not a name ("Scottish", "American"), unless the tagger reads a place or people in it.
  if (tags.adjectives.has(u.start) && !tags.types.has(u.start)) return false;
  if (NEGATIONS.has(u.lower)) return false;
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
  // The preposition, over up to three words of description ("by radio DJ Mike Read", "in the city of Baghdad").
  for (let k = at - 1; k >= Math.max(0, at - 4); k--) {
    const w = units[k]!.lower;
    if (SLOT_OF[w]) return SLOT_OF[w]!;
    if (units[k]!.digit || /[,;:]$/.test(units[k]!.text) || (units[k]!.stop && !DETERMINERS.has(w))) break;
  }
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
  // A capitalised first word right before a name is part of it ("Snow Patrol", "Manchester United").
  const first = units[0];
  if (
    !titleCase &&
    first &&
    !flags[0] &&
    flags[1] &&
    /^\p{Lu}/u.test(first.text) &&
    !first.stop &&
    !NOT_NAMES.has(possessive(first.lower)) &&
    (tags.proper.has(first.start) || tags.types.has(first.start))
  )
    flags[0] = true;
  // A nationality is part of a name it opens ("British Airways").
  units.forEach((u, i) => {
    if (!flags[i] && u.cap && flags[i + 1] && tags.adjectives.has(u.start)) flags[i] = true;
  });
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
    // Only after a determiner or a possessive ("the Moon landing", "U2's Vertigo tour"): "Barcelona beat …" is no "Barcelona beat".
    const next = units[j];
    const prev = units[i - 1];
    const determined = !!prev && (DETERMINERS.has(prev.lower) || /[’']s$/i.test(prev.text));
    const head =
      !titleCase && determined && next && !next.stop && !next.cap && !/[’']s$/i.test(last.text) && tags.nouns.has(next.start)
        ? next
        : undefined;
    out.push({
      text: possessive(text.slice(first.start, last.end)),
      // A WordNet collocation ("President Reagan") is one unit: its words are the name's words.
      words: span
        .flatMap((u) => u.lower.split(' '))
        .filter((w) => !JOINERS.has(w))
        .map(possessive),
      ...(head ? { head: head.lower } : {}),
      distinctive: types[0] === 'person' || !lex.known(possessive(last.lower)),
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

/** A word's key for matching names: possessive and plural dropped, the first five letters of a long word ("Kyrgyzstan" / "Kyrgyz", "American" / "America"). */
function wordKey(w: string): string {
  const bare = possessive(w).replace(/[.’']/g, '');
  return bare.length >= 6 ? bare.slice(0, 5) : bare.replace(/s$/, '');
}

/** Is `acronym` the initials of some run of two or more of the words ("fcc" of "us federal communications commission")? */
function acronymOf(acronym: string, words: readonly string[]): boolean {
  if (acronym.length < 2 || acronym.length > words.length) return false;
  const initials = words.map((w) => w[0]).join('');
  return initials.includes(acronym);
}

/**
 * Does `b` name what `a` names? The same words (spacing, possessives, plurals and long words' endings
 * aside: "TimeWarner" / "Time Warner", "Kyrgyz Republic" / "Kyrgyzstan"), one's initials ("FCC"), or
 * one name's words all within the other's where they include a distinctive word or the other's last
 * word ("Hassan" / "Margaret Hassan"; not "Moon" / "Moon Jae-in", not "Apple" / "Apple Daily").
 */
export function sameName(a: Pick<Name, 'words' | 'distinctive'>, b: Pick<Name, 'words' | 'distinctive'>): boolean {
  if (!a.words.length || !b.words.length) return false;
  const joined = (n: Pick<Name, 'words'>) => n.words.map((w) => possessive(w).replace(/[.’'-]/g, '')).join('');
  const [ja, jb] = [joined(a), joined(b)];
  // "TimeWarner" / "Warner", spaced or not; "FCC" for "(US) Federal Communications Commission".
  if (ja === jb || (Math.min(ja.length, jb.length) >= 5 && (ja.endsWith(jb) || jb.endsWith(ja)))) return true;
  if ((a.words.length === 1 && acronymOf(ja, b.words)) || (b.words.length === 1 && acronymOf(jb, a.words))) return true;
  const [short, long] = a.words.length <= b.words.length ? [a, b] : [b, a];
  const longKeys = long.words.map(wordKey);
  const shared = short.words.filter((w) => longKeys.includes(wordKey(w)));
  if (shared.length === short.words.length)
    return !!short.distinctive || wordKey(short.words.at(-1)!) === longKeys.at(-1) || short.words.length > 1;
  // A distinctive word in common ("Hedge fund Atticus" / "Atticus Capital").
  return shared.some((w) => !!short.distinctive && w === short.words.at(-1));
}

/**
 * Is this name stated in the text: as one of its names (sameName), or word for word outside them (a
 * lower-case mention)? A name that qualifies a noun ("the Moon landing") needs the noun too.
 */
export function mentioned(
  name: Pick<Name, 'words' | 'head' | 'distinctive'>,
  units: readonly Unit[],
  textNames: readonly Name[] = [],
): boolean {
  if (name.head && !units.some((u) => u.lower === name.head || u.lemmas.includes(name.head!))) return false;
  if (textNames.some((n) => sameName(name, n))) return true;
  const inName = (u: Unit) => textNames.some((n) => u.start >= n.start && u.end <= n.end);
  const plain = new Set(units.filter((u) => !inName(u)).flatMap((u) => [u.lower, ...u.lower.split(' ')].map(wordKey)));
  const keys = name.words.map(wordKey);
  return keys.every((k) => plain.has(k)) || (name.words.length > 1 && !!name.distinctive && plain.has(keys.at(-1)!));
}

/** Can two names fill the same slot (a person for a person, a place for a place; unknown types match anything but a person/place clash)? */
export function compatible(a: NameType, b: NameType): boolean {
  return a === b || a === 'other' || b === 'other';
}
