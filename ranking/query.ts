/**
 * Query analysis, pure: the user's text in, a QueryAnalysis out (or a QUERY_* error).
 *
 * - Claim or question. Quin tested `^(is|does|...)` without a word boundary, so "israel ..." and
 *   "doesburg ..." became questions. Here the first *word* is compared, whatever its casing, after
 *   leading quotes, brackets and emoji; a final question mark (ASCII, full-width or Arabic) always
 *   makes a question; "Is it true that X?" and "Fact check: X" are claims about X.
 * - Terms for BM25: runs of letters, digits and marks (the same characters SQLite's unicode61
 *   tokenizer keeps), lower-cased, de-duplicated, stop words removed. Only word tokens ever reach an
 *   index, so quotes, AND/OR/NOT/NEAR, `*`, `^`, parentheses and colons are plain text here.
 */
import nlp from 'compromise';
import { createError } from '../lib/errors';
import type { QueryAnalysis } from './types';

/**
 * English function words dropped from BM25 queries: NLTK's English list (which contains Lucene's, the
 * BEIR BM25 baseline's). On our SciFact split the longer list scores as well or better than Lucene's
 * 33 words (train nDCG@10 0.7081 vs 0.7065, dev 0.6806 vs 0.6734) and makes FTS5 score far fewer
 * rows (100k snippets: p50 20 ms instead of 34 ms); docs/evaluation.md.
 */
export const STOP_WORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by can
  did do does doing don down during each few for from further had has have having he her here hers herself him himself his how
  i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out
  over own same she should so some such t than that the their theirs them themselves then there these they this those through to
  too under until up very was we were what when where which while who whom why will with you your yours yourself yourselves s`
    .split(/\s+/)
    .filter(Boolean),
);

/** More terms than this add latency, not precision; the first ones are kept. */
export const MAX_TERMS = 64;
/** Longer "words" are URLs, hashes or junk: dropped from BM25 (still embedded). */
export const MAX_TERM_CHARS = 40;

const AUXILIARIES = new Set([
  'is',
  'are',
  'was',
  'were',
  'am',
  'do',
  'does',
  'did',
  'can',
  'could',
  'will',
  'would',
  'shall',
  'should',
  'may',
  'might',
  'must',
  'has',
  'have',
  'had',
  'isnt',
  'arent',
  'wasnt',
  'werent',
  'doesnt',
  'didnt',
  'cant',
  'couldnt',
  'wont',
  'wouldnt',
  'shouldnt',
  'hasnt',
  'havent',
  'hadnt',
  'mustnt',
]);
const WH_WORDS = new Set([
  'what',
  'who',
  'whom',
  'whose',
  'which',
  'when',
  'where',
  'why',
  'how',
  'whats',
  'whos',
  'wheres',
  'whens',
  'hows',
  'whys',
]);
/** Requests for information rather than statements. */
const REQUEST_OPENERS = /^(tell me|explain|show me|give me|list|find|search( for)?|describe|summari[sz]e|i want to know|i wonder)\b/i;
/** Openers that wrap a statement to check: the statement after them is the claim. */
const CLAIM_WRAPPERS =
  /^(?:is it (?:true|false|correct|right|the case|a fact) (?:that|whether)|(?:fact[ -]?check|claim|true or false|verify|check)\s*:|(?:please\s+)?(?:verify|check|confirm|fact[ -]?check)(?:\s+(?:that|whether|if))?)\s+/i;
/** Modal/auxiliary words that, capitalised before a capitalised word, are usually names or months. */
const NAME_LIKE = new Set(['will', 'may', 'can', 'mark', 'sue', 'bill']);

// Everything that is not a letter, digit or mark separates words (as in FTS5's unicode61).
// A word starts with a letter or digit (a stray variation selector or combining mark is no word).
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const BREAKING = /[\p{Cc}\u2028\u2029]/gu;
// Zero-width joiners and non-joiners sit inside words (Persian, emoji): removed, not turned into spaces.
const INVISIBLE = /[\p{Cf}\p{Co}\p{Cn}]/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const QUESTION_END = /[?？؟⁇⁈⁉][\s"'”’»)\]}.!\p{So}\p{Sk}]*$/u;

export interface AnalyzeOptions {
  maxChars: number;
}

/** Control, format and private-use characters out, whitespace collapsed, NFC; never throws. */
export function cleanText(raw: string): string {
  return raw.replace(LONE_SURROGATE, ' ').replace(BREAKING, ' ').replace(INVISIBLE, '').normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** Word tokens for BM25: NFKC (full-width letters become ASCII), lower case, letters/digits/marks only. */
export function wordTokens(text: string): string[] {
  const folded = text.normalize('NFKC').toLowerCase().replace(/['’]/g, '');
  return folded.match(WORD) ?? [];
}

export function bm25Terms(text: string): string[] {
  const unique = [...new Set(wordTokens(text).filter((t) => t.length <= MAX_TERM_CHARS))];
  const content = unique.filter((t) => !STOP_WORDS.has(t));
  return (content.length ? content : unique).slice(0, MAX_TERMS);
}

function firstWords(text: string, n: number): string[] {
  return wordTokens(text).slice(0, n);
}

/** The statement inside "Is it true that X?", "Fact check: X", "Verify that X", else null. */
export function unwrapClaim(text: string): string | null {
  const m = CLAIM_WRAPPERS.exec(text);
  if (!m) return null;
  const rest = text
    .slice(m[0].length)
    .replace(/[?？؟\s]+$/u, '')
    .trim();
  return wordTokens(rest).length ? rest : null;
}

/** From this many words a text without a recognised verb is still read as a statement. */
export const STATEMENT_MIN_WORDS = 6;

/**
 * Whether a text that is not a question states something (a claim, which gets a verdict) rather than
 * naming a topic ("Xbox price", "Brexit vote": keywords, which get evidence only). A statement has a
 * verb (compromise's part-of-speech tagger, lower-cased so that all-caps and headline capitals do
 * not hide it), or holds a number in at least four words ("US unemployment at 4% in May"), or is long.
 */
export function isStatement(text: string): boolean {
  const words = wordTokens(text);
  if (words.length >= STATEMENT_MIN_WORDS) return true;
  if (words.length >= 4 && words.some((w) => /\d/.test(w))) return true;
  if (words.length < 2) return false;
  return nlp(text.toLowerCase()).verbs().length > 0;
}

export function detectKind(text: string): 'claim' | 'question' | 'keywords' {
  return detectSentenceKind(text) === 'question' ? 'question' : unwrapClaim(text) || isStatement(text) ? 'claim' : 'keywords';
}

function detectSentenceKind(text: string): 'claim' | 'question' {
  if (unwrapClaim(text)) return 'claim';
  if (QUESTION_END.test(text)) return 'question';
  const lead = text.replace(/^[^\p{L}\p{N}]+/u, '');
  if (REQUEST_OPENERS.test(lead)) return 'question';
  const [first, second] = firstWords(lead, 2);
  if (!first) return 'claim';
  if (WH_WORDS.has(first)) {
    // "When ice melts, sea levels rise": a subordinate clause then a main clause is a statement.
    if ((first === 'when' || first === 'where') && /,/.test(lead)) return 'claim';
    return 'question';
  }
  if (AUXILIARIES.has(first) && second !== undefined) {
    // "Do not ..." / "Don't ..." are imperatives, not questions.
    if ((first === 'do' && second === 'not') || first === 'dont') return 'claim';
    // "Will Smith won an Oscar", "May inflation fell": a capitalised auxiliary before a capitalised word
    // is a name or a month when there is no question mark.
    const words = lead.split(/\s+/);
    if (NAME_LIKE.has(first) && /^\p{Lu}\p{Ll}/u.test(words[0] ?? '') && /^\p{Lu}/u.test(words[1] ?? '')) return 'claim';
    return 'question';
  }
  return 'claim';
}

export function analyzeQuery(raw: unknown, opts: AnalyzeOptions): QueryAnalysis {
  if (typeof raw !== 'string') throw createError('QUERY_EMPTY', 'the query must be text');
  // Cheap bound first so that a multi-megabyte string is rejected before any normalisation.
  if (raw.length > opts.maxChars * 4 + 1024) throw tooLong(opts.maxChars, raw.length);
  const text = cleanText(raw);
  if (!text) throw createError('QUERY_EMPTY', 'the query is empty: type a claim or a question');
  const chars = [...text].length;
  if (chars > opts.maxChars) throw tooLong(opts.maxChars, chars);
  const terms = bm25Terms(text);
  if (!terms.length) {
    throw createError('QUERY_UNUSABLE', 'the query has no searchable words (letters or digits): type a claim or a question', {
      query: text,
    });
  }
  const kind = detectKind(text);
  return { text, kind, claim: kind === 'claim' ? (unwrapClaim(text) ?? text) : text, terms };
}

function tooLong(max: number, got: number) {
  return createError('QUERY_TOO_LONG', `the query is too long (${got} characters; at most ${max})`, { max, got });
}
