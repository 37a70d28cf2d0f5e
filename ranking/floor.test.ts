import { describe, expect, it } from 'vitest';
import type { DenseThresholds } from '../indexer/types';
import {
  BM25_SHARE_OF_BEST,
  denseThresholds,
  matching as floorMatching,
  termCoverage,
  termMatcher,
  UNCALIBRATED,
  type MatchSignals,
} from './floor';
import { bm25Terms } from './query';

// Thresholds of the kind `quin index` measures (an encoder whose nonsense queries reach ~0.45).
const DENSE_MATCH_MIN = 0.5;
const DENSE_ONLY_MIN = 0.7;
const MEASURED: DenseThresholds = { matchMin: DENSE_MATCH_MIN, onlyMin: DENSE_ONLY_MIN };
const matching = (signals: readonly MatchSignals[], terms: number, withDense = true, dense = MEASURED) =>
  floorMatching(signals, terms, withDense, dense);

const cov = (q: string, title: string, text: string) => termCoverage(bm25Terms(q), title, text);

describe('relevance floor', () => {
  it('measures the share of the query words a passage holds, plurals folded', () => {
    expect(cov('Trump tariffs on steel imports', 'Steel tariff row', 'Trump imposed a tariff on imports of steel.')).toBe(1);
    expect(cov('Trump tariffs on steel imports', 'FBI obtained wiretaps', "Agents tapped the phones of Trump's lawyer.")).toBe(0.25);
    expect(cov('xqzvbnm plorf wuggle', 'Team line-ups', 'Chelsea: Cech, Terry, Lampard, 9,796 fans.')).toBe(0);
    // Whole words only, plurals folded both ways, any casing, accents kept.
    expect(cov('studies of steel', 'A survey', 'Stainless steels were studied.')).toBe(0.5);
    expect(cov('studies of steel', 'A study', 'Stainless steels.')).toBe(1);
    expect(cov('café prices', 'Cafés', 'PRICE war')).toBe(1);
    expect(cov('art', 'Martial', 'the party started')).toBe(0);
    // A word boundary is any letter, digit or mark, not only ASCII ones.
    expect(cov('art', 'Señart', 'añoart 3art')).toBe(0);
    expect(cov('art', 'Hélène’s art', '')).toBe(1);
    expect(cov('ice', '𝐀ice', 'x')).toBe(0);
    expect(termMatcher([]).shared('anything')).toBe(0);
  });

  it('keeps passages with enough of the words, not a lone common one', () => {
    const four = 4;
    // best 1.0: a passage needs two of four words; a lone "Trump" is out.
    expect(
      matching(
        [
          { coverage: 1, dense: null },
          { coverage: 0.5, dense: null },
          { coverage: 0.25, dense: null },
        ],
        four,
      ),
    ).toEqual([true, true, false]);
    // A long claim whose best passage holds 5 of 6 words: two words (a third of the best) still match.
    expect(
      matching(
        [
          { coverage: 5 / 6, dense: null },
          { coverage: 2 / 6, dense: null },
          { coverage: 1 / 6, dense: null },
        ],
        6,
      ),
    ).toEqual([true, true, false]);
    // BM25 only (no dense index yet): one word at a third of the best coverage is enough.
    expect(
      matching(
        [
          { coverage: 5 / 6, dense: null },
          { coverage: 2 / 6, dense: null },
          { coverage: 1 / 6, dense: null },
        ],
        6,
        false,
      ),
    ).toEqual([true, true, false]);
    expect(
      matching(
        [
          { coverage: 0.5, dense: null },
          { coverage: 0.25, dense: null },
        ],
        4,
        false,
      ),
    ).toEqual([true, true]);
    // One-word queries: the word is enough.
    expect(matching([{ coverage: 1, dense: null }], 1)).toEqual([true]);
  });

  it('lets close meanings in without shared words, and only very close ones when no passage shares a word', () => {
    expect(
      matching(
        [
          { coverage: 1, dense: null },
          { coverage: 0, dense: DENSE_MATCH_MIN },
          { coverage: 0, dense: DENSE_MATCH_MIN - 0.01 },
        ],
        3,
      ),
    ).toEqual([true, true, false]);
    // Nonsense: no passage shares a word; the nearest neighbours (USE-lite ~0.45) are not matches.
    expect(
      matching(
        [
          { coverage: 0, dense: 0.45 },
          { coverage: 0, dense: 0.6 },
        ],
        3,
      ),
    ).toEqual([false, false]);
    expect(matching([{ coverage: 0, dense: DENSE_ONLY_MIN }], 3)).toEqual([true]);
    expect(matching([], 3)).toEqual([]);
  });

  it('never drops a BM25 keyword match: a passage with the rare word, whatever its other words', () => {
    // "Backpage indictment": "Backpage.com Founders Indicted" holds "backpage" (rare) and "indicted"
    // (which plural folding does not turn into "indictment"): one word of two, BM25 #2.
    const signals = [
      { coverage: 1, dense: 0.3, bm25: 20 },
      { coverage: 0.5, dense: 0.3, bm25: 15 },
      // A lone common word: far below the best BM25 score.
      { coverage: 0.5, dense: 0.3, bm25: 4 },
    ];
    expect(matching(signals, 2, true, UNCALIBRATED)).toEqual([true, true, false]);
    expect(
      matching(
        [
          { coverage: 0.25, dense: null, bm25: BM25_SHARE_OF_BEST * 8 },
          { coverage: 1, dense: null, bm25: 8 },
        ],
        4,
      ),
    ).toEqual([true, true]);
    // Stemming matched a word the floor's plural folding does not see: BM25 still vouches for it.
    expect(matching([{ coverage: 0, dense: null, bm25: 5 }], 2)).toEqual([true]);
  });

  it('uses the thresholds measured for the index, or none', () => {
    const measured = { matchMin: 0.9, onlyMin: 0.94 };
    expect(denseThresholds(measured)).toBe(measured);
    expect(denseThresholds(null)).toBe(UNCALIBRATED);
    expect(denseThresholds(undefined)).toBe(UNCALIBRATED);
    // Nonsense against a static table (cosines ~0.85): nothing passes its measured floor.
    expect(
      matching(
        [
          { coverage: 0, dense: 0.88 },
          { coverage: 0, dense: 0.86 },
        ],
        3,
        true,
        measured,
      ),
    ).toEqual([false, false]);
    expect(matching([{ coverage: 0, dense: 0.95 }], 3, true, measured)).toEqual([true]);
    expect(matching([{ coverage: 0, dense: 0.99 }], 3, true, UNCALIBRATED)).toEqual([false]);
  });
});
