/**
 * Which published fact-checks a query's claim matches: the content words (stop words out, a light
 * suffix strip) that the two share, as a part of each (the smaller of the two parts, so that neither
 * a short claim inside a long one nor a topic word or two is enough); an optional sentence-vector
 * cosine can accept a paraphrase (the caller embeds the few best candidates). Pure.
 */
import { STOP_WORDS, wordTokens } from './query';

export interface FactCheckCandidate {
  id: number;
  claim: string;
}

export interface FactCheckMatch<T> {
  review: T;
  /** The smaller of the two parts of each claim's content words that the other shares (0–1). */
  words: number;
  /** Sentence-vector cosine, when given. */
  dense: number | null;
  score: number;
}

/** From this word coverage, with at least MIN_SHARED shared words, a fact-check matches by its words. */
export const MIN_WORDS = 0.7;
/**
 * From this sentence-vector cosine, with at least PARAPHRASE_WORDS of the words in common, it matches as
 * a paraphrase (sentence vectors alone also find claims on the same subject that say the opposite).
 */
export const MIN_DENSE = 0.9;
const PARAPHRASE_WORDS = 0.5;
const MIN_SHARED = 2;

/** A light stemmer: closes, closed, closing and close all become "clos"; repairs and repaired "repair". */
export function stem(t: string): string {
  if (t.length <= 3) return t;
  let w = t;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

export function contentWords(s: string): Set<string> {
  return new Set(
    wordTokens(s)
      .filter((t) => !STOP_WORDS.has(t) && (t.length > 2 || /\d/.test(t)))
      .map(stem),
  );
}

export function wordScore(a: Set<string>, b: Set<string>): { coverage: number; shared: number } {
  if (!a.size || !b.size) return { coverage: 0, shared: 0 };
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return { coverage: Math.min(shared / a.size, shared / b.size), shared };
}

/** The candidates most alike to the claim by their words, best first (for the caller to embed). */
export function rankByWords<T extends FactCheckCandidate>(
  claim: string,
  reviews: readonly T[],
  limit = 20,
  words?: Map<number, Set<string>>,
): { review: T; coverage: number; shared: number }[] {
  const q = contentWords(claim);
  return reviews
    .map((review) => ({ review, ...wordScore(q, words?.get(review.id) ?? contentWords(review.claim)) }))
    .filter((x) => x.shared > 0)
    .sort((a, b) => b.coverage - a.coverage || a.review.id - b.review.id)
    .slice(0, limit);
}

/** Keeps the matches: by words, or by sentence vectors as a paraphrase; best first. */
export function decideMatches<T extends FactCheckCandidate>(
  ranked: { review: T; coverage: number; shared: number }[],
  dense: (number | null)[] = [],
): FactCheckMatch<T>[] {
  return ranked
    .map((r, i) => ({ review: r.review, words: r.coverage, dense: dense[i] ?? null, shared: r.shared }))
    .filter(
      (m) => m.shared >= MIN_SHARED && (m.words >= MIN_WORDS || (m.dense !== null && m.dense >= MIN_DENSE && m.words >= PARAPHRASE_WORDS)),
    )
    .map(({ shared: _s, ...m }) => ({ ...m, score: Math.max(m.words, m.dense ?? 0) }))
    .sort((a, b) => b.score - a.score || a.review.id - b.review.id);
}
