/**
 * The relevance floor, pure: which candidates actually match the query. Retrieval always returns
 * the K nearest snippets, even for "xqzvbnm plorf wuggle" (the dense index has no notion of "no
 * match"), and a lone common word ("Trump") pulls in half the archive; the results, "newest first",
 * the count of matching passages, the coverage chart and the verdict must only see real matches.
 *
 * A candidate matches when
 * - its words cover enough of the query's: at least LEXICAL_SHARE_OF_BEST of the best coverage any
 *   candidate reaches, and at least two of the query's words when it has two or more (a lone "Trump"
 *   does not match "Trump tariffs on steel imports"; "breast cancer" does match "Birth-weight is
 *   negatively associated with breast cancer", whose relevant abstract spells "birthweight"); or
 * - its meaning is close: the dense cosine reaches DENSE_MATCH_MIN (a paraphrase with few words in
 *   common). When no candidate holds any word of the query (nonsense, or a pure paraphrase), only a
 *   very close meaning counts: DENSE_ONLY_MIN.
 * A query with no matching candidate has no match: "nothing found", and no verdict.
 *
 * Coverage counts the query's BM25 terms (stop words removed) folded for plurals, in the title and
 * text. The thresholds were checked on the SciFact CI subset (docs/evaluation.md#relevance-floor) and
 * on nonsense queries against BBC + HuffPost with USE-lite (they reach cosines of at most ~0.45).
 */
import { foldWord } from './evidence';
import { wordTokens } from './query';

export const LEXICAL_SHARE_OF_BEST = 1 / 3;
export const MIN_SHARED_TERMS = 2;

/** Cosines from which a dense hit counts as a match (USE-lite: nonsense ≤ ~0.45, same-topic stories ≥ 0.7). */
export const DENSE_MATCH_MIN = 0.5;
export const DENSE_ONLY_MIN = 0.7;

/** Folded word set of a passage (title and text). */
export function passageWords(title: string, text: string): Set<string> {
  return new Set(wordTokens(`${title} ${text}`).map(foldWord));
}

export function foldedTerms(terms: readonly string[]): string[] {
  return [...new Set(terms.map(foldWord))];
}

/** How many of the query's (folded, distinct) terms the passage's words hold. */
export function sharedTerms(folded: readonly string[], words: ReadonlySet<string>): number {
  let hit = 0;
  for (const t of folded) if (words.has(t)) hit++;
  return hit;
}

/** Share of the query's terms found in the passage's words, in [0, 1]. */
export function termCoverage(terms: readonly string[], words: ReadonlySet<string>): number {
  const folded = foldedTerms(terms);
  return folded.length ? sharedTerms(folded, words) / folded.length : 0;
}

export interface MatchSignals {
  /** termCoverage of the passage. */
  coverage: number;
  /** Dense cosine, null when the dense run did not return it. */
  dense: number | null;
}

/** Which candidates match (same order as given), for a query of `termCount` distinct terms. */
export function matching(signals: readonly MatchSignals[], termCount: number): boolean[] {
  const best = Math.max(0, ...signals.map((s) => s.coverage));
  const lexicalMin = Math.max(best * LEXICAL_SHARE_OF_BEST, Math.min(MIN_SHARED_TERMS, termCount) / Math.max(1, termCount)) - 1e-9;
  const denseMin = best > 0 ? DENSE_MATCH_MIN : DENSE_ONLY_MIN;
  return signals.map((s) => (s.coverage > 0 && s.coverage >= lexicalMin) || (s.dense !== null && s.dense >= denseMin));
}
