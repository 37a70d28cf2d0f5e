/**
 * A sentence as a list of tagged words (compromise's part-of-speech tagger), and the way back to text.
 * Every rule of the claim extraction reads these tokens; each keeps the punctuation around its word
 * (`pre`, `post`) so that a part cut out of a sentence reads as the sentence wrote it. Pure.
 */
import nlp from 'compromise';

export interface Token {
  text: string;
  /** Punctuation and spaces before and after the word, as written ("\"", ", "). */
  pre: string;
  post: string;
  /** Lower-case form without punctuation. */
  normal: string;
  tags: ReadonlySet<string>;
  /** A word of a name: tagged so by compromise, or capitalised where a common word would not be (tokenize). */
  name: boolean;
}

interface RawTerm {
  text: string;
  pre?: string;
  post?: string;
  normal?: string;
  tags?: string[];
}

const TAGGED_NAME = ['ProperNoun', 'Person', 'Organization', 'Acronym'];
const FUNCTION_TAGS = ['Determiner', 'Preposition', 'Conjunction', 'Pronoun', 'Adverb', 'Auxiliary', 'Copula', 'Modal', 'QuestionWord'];
/** Capitalised words that are not names wherever they stand. */
const NEVER_NAMES = new Set(['i', "i'm", "i've", "i'd", "i'll", 'mr', 'mrs', 'ms', 'dr']);
const CAPITAL = /^\p{Lu}/u;
/** Spelled as only a name is: all capitals, inner capitals, letters with digits ("SEC", "TimeWarner", "U2"). */
const NAME_SHAPE = /^\p{Lu}{2,}|\p{Ll}\p{Lu}|\p{L}\d|\d\p{L}/u;

/**
 * compromise misses many names (it tags "TimeWarner" a common noun and "Time" in "Time Warner" a
 * verb), so capitals decide too: a capitalised word is a name where a common word would be in lower
 * case — not at the start of the sentence or of a quote, and not in a headline where every word is
 * capitalised. At the start, a word is a name by its shape, or when a name follows it.
 */
function markNames(terms: Omit<Token, 'name'>[], titleCase: boolean): Token[] {
  const out = terms.map((t) => ({ ...t, name: false }));
  out.forEach((t, i) => {
    if (NEVER_NAMES.has(t.normal) || t.tags.has('Pronoun') || t.tags.has('Value')) return;
    const tagged = TAGGED_NAME.some((tag) => t.tags.has(tag));
    const start = i === 0 || /["“(:]\s*$/.test(`${out[i - 1]!.post}${t.pre}`);
    const capital = CAPITAL.test(t.text) && !titleCase;
    t.name = tagged || NAME_SHAPE.test(t.text) || (capital && !start);
  });
  // "Time Warner's …": a capitalised first word joined to the name after it (unless a function word).
  out.forEach((t, i) => {
    const next = out[i + 1];
    const start = i === 0 || /["“(:]\s*$/.test(`${out[i - 1]!.post}${t.pre}`);
    const joined = next?.name || (next?.normal === 'of' && out[i + 2]?.name);
    if (
      start &&
      !t.name &&
      joined &&
      CAPITAL.test(t.text) &&
      !titleCase &&
      !/[,;:]/.test(t.post) &&
      !FUNCTION_TAGS.some((g) => t.tags.has(g))
    )
      t.name = !NEVER_NAMES.has(t.normal);
  });
  return out;
}

/** Past tenses that are nouns too, which compromise reads as the noun even after "it" ("it rose"). */
const PAST_NOUNS = new Set(['rose', 'saw', 'left', 'found', 'led', 'fed', 'wound', 'bore', 'lay']);

/** The tags of a word read after "it" ("it employs", "it fell"), or null when that is no verb. */
export function verbTags(word: string): string[] | null {
  if (PAST_NOUNS.has(word)) return ['Verb', 'PastTense'];
  const tags = (nlp(`it ${word}`).json() as { terms: RawTerm[] }[])[0]?.terms[1]?.tags ?? [];
  return tags.includes('Verb') && (tags.includes('PresentTense') || tags.includes('PastTense')) ? tags : null;
}

/**
 * compromise reads a verb after a name it does not know as a noun ("Kessling employs 3,400",
 * "sales rose 2%"). A common noun followed by a number, or by "the" / "a", that reads as a verb
 * after "it" is retagged as that verb.
 */
function repairVerbs(tokens: Token[]): Token[] {
  return tokens.map((t, i) => {
    const next = tokens[i + 1];
    if (!next || t.name || t.tags.has('Value') || /[,;:]/.test(t.post)) return t;
    // "costs fell": a present-tense "-s" word right before a past-tense verb is its subject.
    if (t.tags.has('Verb') && !t.tags.has('Auxiliary') && /s$/.test(t.normal) && next.tags.has('PastTense') && !next.tags.has('Participle'))
      return { ...t, tags: new Set(['Noun', 'Plural']) };
    // "and repairs to the bridge are expected": at a clause's start, an "-s" word, a preposition, then "are" is the subject.
    const clauseStart = i === 0 || /^(?:and|but|while)$/.test(tokens[i - 1]!.normal) || /,/.test(tokens[i - 1]!.post);
    const laterVerb = tokens.slice(i + 2, i + 7).some((x) => x.tags.has('Auxiliary') || x.tags.has('Copula'));
    if (clauseStart && t.tags.has('PresentTense') && /s$/.test(t.normal) && next.tags.has('Preposition') && laterVerb)
      return { ...t, tags: new Set(['Noun', 'Plural']) };
    // "would close two libraries": the word after a modal verb is a verb when it can be one.
    if (
      i > 0 &&
      tokens[i - 1]!.tags.has('Modal') &&
      !t.tags.has('Verb') &&
      (t.tags.has('Adverb') || t.tags.has('Adjective') || t.tags.has('Noun'))
    ) {
      const tags = verbTags(t.normal);
      return tags ? { ...t, tags: new Set([...tags, 'Infinitive']) } : t;
    }
    if (!t.tags.has('Noun')) return t;
    const object = next.tags.has('Value') || (next.tags.has('Determiner') && /^(?:the|a|an)$/.test(next.normal));
    // "Apple, which …, plans to open": after the insertion's comma, a "-s" noun before "to" + a verb is the main verb.
    const afterInsertion =
      i > 0 && /,/.test(tokens[i - 1]!.post) && /s$/.test(t.normal) && next.normal === 'to' && tokens[i + 2]?.tags.has('Infinitive');
    if (!object && !afterInsertion) return t;
    const tags = verbTags(t.normal);
    return tags ? { ...t, tags: new Set(tags) } : t;
  });
}

export function tokenize(sentence: string): Token[] {
  const docs = nlp(sentence).json() as { terms: RawTerm[] }[];
  const terms = docs.flatMap((d) =>
    d.terms.map((t) => ({
      text: t.text,
      pre: t.pre ?? '',
      post: t.post ?? ' ',
      normal: (t.normal ?? t.text).toLowerCase(),
      tags: new Set(t.tags ?? []),
    })),
  );
  const words = terms.filter((t) => /^\p{L}/u.test(t.text));
  const titleCase = words.length >= 4 && words.filter((t) => CAPITAL.test(t.text)).length / words.length > 0.7;
  return repairVerbs(markNames(terms, titleCase));
}

/** A token as written, words joined as the sentence joined them. */
export function joinTokens(tokens: readonly Token[]): string {
  return tokens
    .map((t, i) => `${i === 0 ? t.pre.trimStart() : t.pre}${t.text}${i === tokens.length - 1 ? t.post.trimEnd() : t.post}`)
    .join('');
}

const OPENING_QUOTES = /["“‘'«]/;
const CLOSING_QUOTES = /["”’'»]/;

/**
 * Text of a part cut out of a sentence: inner punctuation kept, trailing commas, dashes and
 * unbalanced quotes dropped, a capital first letter and a full stop at the end.
 */
export function asSentence(tokens: readonly Token[]): string {
  let text = joinTokens(tokens)
    .replace(/^[\s,;:–—-]+/, '')
    .replace(/[\s,;:–—-]+$/, '')
    .trim();
  const opens = (text.match(new RegExp(OPENING_QUOTES, 'g')) ?? []).length;
  const closes = (text.match(new RegExp(CLOSING_QUOTES, 'g')) ?? []).length;
  if (/^["“]/.test(text) && opens + closes === 1) text = text.slice(1).trim();
  if (/["”]$/.test(text) && opens + closes === 1) text = text.slice(0, -1).trim();
  if (!text) return text;
  text = text[0]!.toUpperCase() + text.slice(1);
  return /[.!?]["”’)]?$/.test(text) ? text : `${text.replace(/[.!?]+$/, '')}.`;
}

export const has = (t: Token | undefined, tag: string): boolean => t !== undefined && t.tags.has(tag);

/** A comma, semicolon or dash after the word (a clause or phrase boundary). */
export function endsWithComma(t: Token | undefined): boolean {
  return t !== undefined && /[,;–—]/.test(t.post);
}

/** A verb, unless it is a word of a name ("Time" in "Time Warner") or an adjective too. */
export function isVerb(t: Token | undefined): boolean {
  return has(t, 'Verb') && !has(t, 'Adjective') && !t!.name;
}

/** A word of a name (see markNames). */
export function isName(t: Token | undefined): boolean {
  return t !== undefined && t.name;
}

export function isPronoun(t: Token | undefined): boolean {
  return has(t, 'Pronoun');
}
