import { describe, expect, it } from 'vitest';
import { DENSE_MATCH_MIN, DENSE_ONLY_MIN, matching, termCoverage, termMatcher } from './floor';
import { bm25Terms } from './query';

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
});
