/**
 * The relevance floor, pure: which candidates actually match the query. Retrieval always returns
 * the K nearest snippets, even for "xqzvbnm plorf wuggle" (the dense index has no notion of "no
 * match"), and a lone common word ("Trump") pulls in half the archive; the results, "newest first",
 * the count of matching passages, the coverage chart and the verdict must only see real matches.
 *
 * A candidate matches when
 * - its words cover enough of the query's: at least LEXICAL_SHARE_OF_BEST of the best coverage any
 *   candidate reaches (a 4-word query whose best passage holds all 4 words needs 2 of them; a long
 *   claim whose best passage holds 6 of 10 needs 3), and at least one word; or
 * - its meaning is close: the dense cosine reaches the encoder's DENSE_MATCH_MIN (a paraphrase with
 *   no word in common).
 * A query with no matching candidate has no match: "nothing found", and no verdict.
 *
 * Coverage counts the query's BM25 terms (stop words removed) folded for plurals, in the title and
 * text. Both thresholds were checked on the SciFact CI subset (no relevant abstract loses its
 * candidates: the pinned evaluation numbers are unchanged) and on BBC + HuffPost nonsense queries
 * (docs/evaluation.md#relevance-floor).
 */
import { foldWord } from './evidence';
import { wordTokens } from './query';

export const LEXICAL_SHARE_OF_BEST = 0.5;

/**
 * Cosine from which a dense hit counts as a match without shared words, per encoder family. USE-lite:
 * nonsense queries reach at most ~0.35 on BBC + HuffPost, paraphrases of a headline 0.6 and more.
 */
export const DENSE_MATCH_MIN = { useLite: 0.5, other: 0.5 } as const;

export function denseMatchMin(encoderId: string): number {
  return encoderId.startsWith('use-lite') ? DENSE_MATCH_MIN.useLite : DENSE_MATCH_MIN.other;
}

/** Folded word set of a passage (title and text). */
export function passageWords(title: string, text: string): Set<string> {
  return new Set(wordTokens(`${title} ${text}`).map(foldWord));
}

/** Share of the query's terms found in the passage's words, in [0, 1]. */
export function termCoverage(terms: readonly string[], words: ReadonlySet<string>): number {
  const folded = [...new Set(terms.map(foldWord))];
  if (!folded.length) return 0;
  let hit = 0;
  for (const t of folded) if (words.has(t)) hit++;
  return hit / folded.length;
}

export interface MatchSignals {
  /** termCoverage of the passage. */
  coverage: number;
  /** Dense cosine, null when the dense run did not return it. */
  dense: number | null;
}

/** Which candidates match (same order as given). */
export function matching(signals: readonly MatchSignals[], denseMin: number): boolean[] {
  const best = Math.max(0, ...signals.map((s) => s.coverage));
  const lexicalMin = best * LEXICAL_SHARE_OF_BEST;
  return signals.map((s) => (s.coverage > 0 && s.coverage >= lexicalMin - 1e-12) || (s.dense !== null && s.dense >= denseMin));
}
