/**
 * Where the parts of a sentence are: its opening connective ("But", "However,"), its subject, the
 * noun phrase before a word, the end of a clause. The splitting and reference rules are written with
 * these. Pure, over compromise's tags (tokens.ts).
 */
import { endsWithComma, has, isName, isVerb, type Token } from './tokens';

/** Words that open a sentence without being part of its subject. */
const CONNECTIVES = new Set([
  'but',
  'and',
  'however',
  'meanwhile',
  'also',
  'so',
  'yet',
  'still',
  'now',
  'instead',
  'separately',
  'elsewhere',
  'overall',
  'earlier',
  'later',
  'previously',
  'indeed',
  'moreover',
  'furthermore',
  'additionally',
  'nonetheless',
  'nevertheless',
]);

/** Words that open an adverbial phrase before the subject ("On Friday,", "Last year,", "In 2004,"). */
const PHRASE_OPENERS = new Set(['last', 'this', 'next', 'earlier', 'later', 'after', 'before', 'since', 'until', 'during']);

/** Index of the first token after the opening connectives and any opening phrase closed by a comma ("On Friday,"). */
export function subjectStart(tokens: readonly Token[]): number {
  let i = 0;
  while (i < tokens.length && CONNECTIVES.has(tokens[i]!.normal)) i++;
  const opener = tokens[i];
  const phrase =
    has(opener, 'Preposition') ||
    has(opener, 'Adverb') ||
    has(opener, 'Date') ||
    has(opener, 'Value') ||
    PHRASE_OPENERS.has(opener?.normal ?? '');
  // "On Friday, ...", "For the full year, ...": a short opening phrase without a verb, closed by a comma.
  for (let j = i; phrase && j < Math.min(tokens.length - 1, i + 6); j++) {
    if (isVerb(tokens[j])) break;
    if (endsWithComma(tokens[j])) return j + 1;
  }
  return i;
}

/** Index of the sentence's first verb at or after `from` (-1: none). */
export function firstVerb(tokens: readonly Token[], from = 0): number {
  for (let i = from; i < tokens.length; i++) if (isVerb(tokens[i])) return i;
  return -1;
}

export function hasVerb(tokens: readonly Token[]): boolean {
  return firstVerb(tokens) >= 0;
}

/** The subject: from subjectStart to the first verb (empty when the sentence starts with its verb). */
export function subjectSpan(tokens: readonly Token[]): { start: number; end: number } {
  const start = subjectStart(tokens);
  const verb = firstVerb(tokens, start);
  return { start, end: verb < 0 ? start : verb };
}

/** Tokens that can sit inside a noun phrase ("the US Securities Exchange Commission (SEC)", "two Croke Park concerts"). */
function inNounPhrase(t: Token): boolean {
  if (isName(t)) return true;
  if (isVerb(t) && !has(t, 'Gerund')) return false;
  return (
    has(t, 'Noun') ||
    has(t, 'Adjective') ||
    has(t, 'Determiner') ||
    has(t, 'Value') ||
    has(t, 'Possessive') ||
    has(t, 'Gerund') ||
    has(t, 'Acronym')
  );
}

/** Start of the noun phrase that ends at `end` (inclusive), never before `floor`. */
export function nounPhraseStart(tokens: readonly Token[], end: number, floor = 0): number {
  let i = end;
  while (i - 1 >= floor && inNounPhrase(tokens[i - 1]!) && !endsWithComma(tokens[i - 1]) && !has(tokens[i - 1], 'Preposition')) i--;
  return i;
}

/** End (exclusive) of the phrase or clause that starts at `from`: the next comma, semicolon or dash, or the end. */
export function clauseEnd(tokens: readonly Token[], from: number): number {
  for (let i = from; i < tokens.length; i++) if (endsWithComma(tokens[i])) return i + 1;
  return tokens.length;
}

/** The head noun's token of a noun phrase (its last noun or name). */
export function headOf(phrase: readonly Token[]): Token | undefined {
  return [...phrase].reverse().find((t) => has(t, 'Noun') || isName(t));
}

/** A verb, or an adverb or auxiliary followed by one ("is close", "previously set"): a verb phrase starts here. */
export function startsVerbPhrase(tokens: readonly Token[], i: number): boolean {
  if (isVerb(tokens[i])) return true;
  return (has(tokens[i], 'Adverb') || has(tokens[i], 'Auxiliary')) && isVerb(tokens[i + 1]);
}
