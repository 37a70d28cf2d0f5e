/**
 * Which sentences are worth checking. A claim states something the coverage could confirm or
 * contradict: a factual statement with a checkable detail (a name, a number, a date, a place). Left
 * out, each with its reason so that the report can list them: questions, opinions (judgements,
 * advice, "I think"), quotes of feelings, page furniture (boilerplate), fragments, and statements
 * with no detail to check. A judgement that carries a number or a date ("the worst year since 1987")
 * is still checked: the number can be wrong. Pure.
 */
import { detectKind } from '../../ranking';
import { detailsOf, hasNumberOrDate, type Detail } from './details';
import { ADDRESS, BOILERPLATE, EVALUATIVE, FEELINGS, OPINION_OPENERS, PRESCRIPTIVE } from './lexicon';
import { tokenize, type Token } from './tokens';

export type SkipReason = 'question' | 'opinion' | 'feeling' | 'boilerplate' | 'fragment' | 'no_detail';

export type Worthiness = { worthy: true; details: Detail[] } | { worthy: false; reason: SkipReason };

/** Fewer words than this is a heading, a caption or a fragment, not a statement. */
export const MIN_CLAIM_WORDS = 5;
const QUOTE = /["“]([^"”]{3,})["”]/g;
/** Modal verbs of a view or a forecast: a quote that "could", "must" or "needs to" is a judgement, not a report. */
const HEDGES = /\b(?:could|might|may|must|should|would|needs?\s+to|has\s+to|have\s+to|ought\s+to|probably|perhaps|maybe)\b/i;

/**
 * The quoted words of a sentence. A quote often runs over several sentences: one that opens with a
 * quotation mark and never closes it is quoted to its end, one that closes a quote it did not open is
 * quoted from its start.
 */
export function quotedText(sentence: string): string {
  const paired = [...sentence.matchAll(QUOTE)].map((m) => m[1]!);
  const marks = sentence.match(/["“”]/g)?.length ?? 0;
  if (marks % 2 === 0) return paired.join(' ');
  if (/^\s*["“]/.test(sentence)) return sentence.slice(sentence.search(/["“]/) + 1);
  if (/["”]\s*$/.test(sentence) || /["”][^"“”]*$/.test(sentence)) return sentence.slice(0, sentence.search(/["”][^"“”]*$/));
  return paired.join(' ');
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}'’]+/gu) ?? [];
const anyIn = (words: readonly string[], set: ReadonlySet<string>) => words.some((w) => set.has(w));

/** A sentence that is mostly a quote, and the quote holds a feeling or a view with nothing to check in it. */
function quoteReason(sentence: string): SkipReason | null {
  const quote = quotedText(sentence);
  if (!quote || quote.length < sentence.length * 0.5) return null;
  if (hasNumberOrDate(detailsOf(tokenize(quote)))) return null;
  const words = wordsOf(quote);
  if (anyIn(words, FEELINGS)) return 'feeling';
  // A speaker on themselves ("Our performance was strong") with no number or date in it: a view.
  if (anyIn(words, EVALUATIVE) || OPINION_OPENERS.test(quote) || /\b(?:i|we|our|my)\b/i.test(quote)) return 'opinion';
  if (HEDGES.test(quote)) return 'opinion';
  return null;
}

function isBoilerplate(sentence: string, words: readonly string[]): boolean {
  return BOILERPLATE.some((re) => re.test(sentence)) || (ADDRESS.test(sentence) && words.length < 12);
}

/** `tokens` are the sentence's, after its references were resolved ("It" → "TimeWarner" is a name). */
export function judgeSentence(sentence: string, tokens: readonly Token[]): Worthiness {
  const words = wordsOf(sentence);
  if (isBoilerplate(sentence, words)) return { worthy: false, reason: 'boilerplate' };
  // "What a wonderful day it was!": an exclamation is a reaction, unless it carries a number or a date.
  if (/!["”’)]*$/.test(sentence) && !hasNumberOrDate(detailsOf(tokens))) return { worthy: false, reason: 'opinion' };
  if (detectKind(sentence) === 'question') return { worthy: false, reason: 'question' };
  if (words.length < MIN_CLAIM_WORDS) return { worthy: false, reason: 'fragment' };
  const quoted = quoteReason(sentence);
  if (quoted) return { worthy: false, reason: quoted };
  const details = detailsOf(tokens);
  const unquoted = sentence.replace(QUOTE, ' ');
  const numbered = hasNumberOrDate(details);
  if (OPINION_OPENERS.test(unquoted)) return { worthy: false, reason: 'opinion' };
  if (!numbered && /\b(?:i|we)\b/i.test(unquoted) && anyIn(wordsOf(unquoted), FEELINGS)) return { worthy: false, reason: 'feeling' };
  if (!numbered && (anyIn(wordsOf(unquoted), EVALUATIVE) || PRESCRIPTIVE.test(unquoted))) return { worthy: false, reason: 'opinion' };
  if (!details.length) return { worthy: false, reason: 'no_detail' };
  return { worthy: true, details };
}
