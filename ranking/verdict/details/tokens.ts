/**
 * Words of a claim or an evidence sentence, as the aligner reads them: offsets into the text, the
 * lower-cased form, every lemma the word may have (noun, verb and adjective readings, since there is
 * no tagger: "grew" → grow, "growth" → growth, "rates" → rate), and whether it is a function word.
 */
import lemmatizer from 'wink-lemmatizer';

export interface Token {
  text: string;
  lower: string;
  start: number;
  end: number;
  /** Possible lemmas, the lower-cased form first. */
  lemmas: string[];
  /** Function word (no content of its own for coverage). */
  stop: boolean;
  /** Starts with a capital letter and is not the text's first word (a name, most likely). */
  cap: boolean;
  /** Made of digits (with , . inside). */
  digit: boolean;
}

// A word: letters/digits with inner apostrophes, dots (U.S.), hyphens and digit separators.
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}]|['’.,-](?=[\p{L}\p{N}]))*/gu;

/** Function words: determiners, pronouns, prepositions, conjunctions, auxiliaries (not negations, modals or quantifiers, which carry meaning here). */
export const FUNCTION_WORDS = new Set(
  `a an the this that these those it its it's itself he him his she her hers they them their theirs we us our you your i me my
  of in on at by for from to into onto with within about as than then so such there here also too very just
  and or but if while when where which who whom whose what how why because although though since
  is are was were be been being am do does did has have had having 's said says say saying told according
  will would shall can could
  one's mr mrs ms dr per via upon over under out off again further once`
    .split(/\s+/)
    .filter(Boolean),
);

const CACHE = new Map<string, string[]>();

/** Lemma candidates of a lower-cased word (memoised: the same words recur across sentences). */
export function lemmasOf(lower: string): string[] {
  let out = CACHE.get(lower);
  if (out) return out;
  const plain = lower.replace(/[’']s$/, '').replace(/’/g, "'");
  const set = new Set([plain]);
  if (/^\p{L}+$/u.test(plain)) {
    for (const f of [lemmatizer.noun, lemmatizer.verb, lemmatizer.adjective]) {
      const l = f(plain);
      if (l) set.add(l);
    }
  }
  out = [...set];
  if (CACHE.size > 200_000) CACHE.clear();
  CACHE.set(lower, out);
  return out;
}

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) {
    const t = m[0].replace(/[.,]$/, '');
    const lower = t.toLowerCase();
    const first = out.length === 0 || /[.!?:]\s*$/.test(text.slice(out.at(-1)!.end, m.index));
    out.push({
      text: t,
      lower,
      start: m.index,
      end: m.index + t.length,
      lemmas: lemmasOf(lower),
      stop: FUNCTION_WORDS.has(lower),
      cap: !first && /^\p{Lu}/u.test(t),
      digit: /^\d[\d.,]*$/.test(t),
    });
  }
  return out;
}
