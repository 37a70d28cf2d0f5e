/**
 * The relevance floor, pure: which candidates actually match the query. Retrieval always returns
 * the K nearest snippets, even for "xqzvbnm plorf wuggle" (the dense index has no notion of "no
 * match"), and a lone common word ("Trump") pulls in half the archive; the results, "newest first",
 * the count of matching passages, the coverage chart and the verdict must only see real matches.
 *
 * A candidate matches when
 * - its words cover enough of the query's: at least LEXICAL_SHARE_OF_BEST of the best coverage any
 *   candidate reaches, and at least two of the query's words when it has two or more and the dense
 *   index serves the search (a lone "Trump" does not match "Trump tariffs on steel imports"; "breast
 *   cancer" does match "Birth-weight is negatively associated with breast cancer", whose relevant
 *   abstract spells "birthweight"); or
 * - it is a keyword match: BM25 scores it at least BM25_SHARE_OF_BEST of the best BM25 score (a
 *   passage holding the query's rarest word, as "Backpage.com Founders Indicted" for "Backpage
 *   indictment", is kept whatever its other words; a lone common "Trump" scores far below the
 *   passages that hold the rest of "Trump tariffs on steel imports"); or
 * - its meaning is close: the dense cosine reaches `matchMin` (a paraphrase with few words in
 *   common). When no candidate holds any word of the query (nonsense, or a pure paraphrase), only a
 *   very close meaning counts: `onlyMin`.
 * A query with no matching candidate has no match: "nothing found", and no verdict.
 *
 * The dense thresholds belong to the encoder and the corpus: `quin index` measures them with
 * nonsense and word-salad queries and stores them with the index (indexer/dense/floor-calibration.ts).
 * An index without a measurement has none: the dense side alone then admits nothing.
 *
 * Coverage counts the query's BM25 terms (stop words removed) folded for plurals, in the title and
 * text. The lexical rules were checked on the SciFact CI subset (docs/evaluation.md#relevance-floor).
 */
import type { DenseThresholds } from '../indexer/types';
import { foldWord } from './evidence';

export const LEXICAL_SHARE_OF_BEST = 1 / 3;
export const MIN_SHARED_TERMS = 2;
/** A candidate whose BM25 score reaches this share of the best BM25 score is a keyword match. */
export const BM25_SHARE_OF_BEST = 0.5;

/** An encoder never measured: its cosines say nothing on their own. */
export const UNCALIBRATED: DenseThresholds = { matchMin: Infinity, onlyMin: Infinity };

export function foldedTerms(terms: readonly string[]): string[] {
  return [...new Set(terms.map(foldWord))];
}

export interface TermMatcher {
  /** Distinct folded query terms. */
  readonly count: number;
  /** How many of them a text holds as words (plurals folded as in the query). */
  shared(text: string): number;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** Whether the code point at `i` is part of a word (a letter, digit or mark); ASCII without a regular expression. */
function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i)!));
}

/** The index just past the word that continues at `i`. */
function wordEnd(text: string, i: number): number {
  while (i < text.length && isWordChar(text, i)) i += text.codePointAt(i)! > 0xffff ? 2 : 1;
  return i;
}

/** Whether a word starts at `i` (no letter, digit or mark just before it). */
function startsWord(text: string, i: number): boolean {
  if (i === 0) return true;
  const c = text.charCodeAt(i - 1);
  // A low surrogate: the character before is the pair ending here.
  const at = c >= 0xdc00 && c <= 0xdfff && i >= 2 ? i - 2 : i - 1;
  return !isWordChar(text, at);
}

/**
 * Finds the query's terms in passages without tokenising them: each term's stem is searched for with
 * indexOf, and only the words that start with it are folded and compared. (Tokenising every
 * candidate's text with Unicode word classes cost more than the rest of the search; one regular
 * expression over the stems, with Unicode classes, was still half of the floor stage.)
 */
export function termMatcher(terms: readonly string[]): TermMatcher {
  const folded = foldedTerms(terms);
  const wanted = new Set(folded);
  // A folded term is matched by words that start with it less its last letter ("study" ← "studies").
  const stems = [...new Set(folded.map((t) => (t.length > 2 ? t.slice(0, -1) : t)))].filter((t) => t.length > 0);
  return {
    count: folded.length,
    shared(text) {
      if (!stems.length) return 0;
      // Lower-cased once; apostrophes dropped only where there are any (most passages: one copy, not two).
      let lower = text.toLowerCase();
      if (lower.includes("'") || lower.includes('’')) lower = lower.replace(/['’]/g, '');
      const found = new Set<string>();
      for (const stem of stems)
        for (let i = lower.indexOf(stem); i >= 0; i = lower.indexOf(stem, i + 1)) {
          if (!startsWord(lower, i)) continue;
          const w = foldWord(lower.slice(i, wordEnd(lower, i + stem.length)));
          if (wanted.has(w)) found.add(w);
        }
      return found.size;
    },
  };
}

/** Share of the query's terms found in a passage (title and text), in [0, 1]. */
export function termCoverage(terms: readonly string[], title: string, text: string): number {
  const m = termMatcher(terms);
  return m.count ? m.shared(`${title}\n${text}`) / m.count : 0;
}

export interface MatchSignals {
  /** termCoverage of the passage. */
  coverage: number;
  /** Dense cosine, null when the dense run did not return it. */
  dense: number | null;
  /** BM25 score (higher is better), null when the BM25 run did not return it. */
  bm25?: number | null;
}

/**
 * Which candidates match (same order as given), for a query of `termCount` distinct terms. Without the
 * dense index (`withDense` false: BM25 only) one word at a third of the best coverage is enough, as a
 * paraphrase sharing one rare word has no other way in. `dense` holds the thresholds measured for
 * the index's encoder.
 */
export function matching(signals: readonly MatchSignals[], termCount: number, withDense: boolean, dense: DenseThresholds): boolean[] {
  const best = Math.max(0, ...signals.map((s) => s.coverage));
  const bestBm25 = Math.max(0, ...signals.map((s) => s.bm25 ?? 0));
  const minShared = withDense ? Math.min(MIN_SHARED_TERMS, termCount) : 1;
  const lexicalMin = Math.max(best * LEXICAL_SHARE_OF_BEST, minShared / Math.max(1, termCount)) - 1e-9;
  const denseMin = best > 0 ? dense.matchMin : dense.onlyMin;
  const keyword = (s: MatchSignals) => bestBm25 > 0 && s.bm25 !== undefined && s.bm25 !== null && s.bm25 >= BM25_SHARE_OF_BEST * bestBm25;
  return signals.map((s) => (s.coverage > 0 && s.coverage >= lexicalMin) || keyword(s) || (s.dense !== null && s.dense >= denseMin));
}

/** The dense thresholds a search uses: the index's measured ones, else none. */
export function denseThresholds(measured: DenseThresholds | null | undefined): DenseThresholds {
  return measured ?? UNCALIBRATED;
}
