import { describe, expect, it } from 'vitest';
import type { StanceEvidence } from '../../ranking/types';
import { formatNews, locateSentence, scoreNews, type ClaimOutcome } from './score';

const o = (over: Partial<ClaimOutcome>): ClaimOutcome => ({
  id: 'n',
  claim: 'a claim',
  gold: 'SUPPORTED',
  kind: 'paraphrase',
  corpus: 'bbc',
  doc: 'business/001',
  queryKind: 'claim',
  verdictStatus: 'ok',
  predicted: 'SUPPORTED',
  confidence: 0.5,
  top10: ['business/001'],
  deciding: 'supports',
  ...over,
});

const ev = (sentence: string): StanceEvidence => ({
  snippetId: 1,
  sentence,
  title: '',
  url: '',
  source: '',
  publishedAt: null,
  stance: 'supports',
  confidence: 1,
  weight: 1,
});

describe('locateSentence', () => {
  const evidence = {
    supports: [ev('Shares rose 5% on Monday after the results.')],
    refutes: [ev('I definitely want to stay at City because I have really improved as a player here.')],
    neutral: [],
  };
  it('finds the stance group holding the sentence, ignoring punctuation, quotes and case', () => {
    expect(locateSentence('shares rose 5% on Monday after the results', evidence)).toBe('supports');
    expect(locateSentence('"I definitely want to stay at City because I have really improved as a player here."', evidence)).toBe(
      'refutes',
    );
  });
  it('says "not shown" otherwise, and never matches short pieces', () => {
    expect(locateSentence('Shares fell 5% on Monday after the results.', evidence)).toBe('not shown');
    expect(locateSentence('Shares rose', evidence)).toBe('not shown');
    expect(locateSentence('Shares rose 5% on Monday after the results.', null)).toBe('not shown');
  });
});

describe('scoreNews', () => {
  const outcomes = [
    o({ id: 'a' }),
    o({ id: 'b', predicted: 'REFUTED', confidence: 0.9, deciding: 'refutes', top10: ['x'] }),
    o({
      id: 'c',
      gold: 'REFUTED',
      predicted: 'REFUTED',
      confidence: 0.8,
      corpus: 'reuters',
      kind: 'direction',
      doc: '17',
      top10: ['9', '17'],
      deciding: 'refutes',
    }),
    o({
      id: 'd',
      gold: 'NOT_ENOUGH_EVIDENCE',
      predicted: 'MIXED',
      confidence: 0.7,
      kind: 'nei',
      doc: 'sport/002',
      top10: [],
      deciding: 'neutral',
    }),
    o({
      id: 'k',
      gold: null,
      kind: 'keywords',
      doc: null,
      claim: 'Xbox price',
      predicted: 'REFUTED',
      confidence: 0.6,
      top10: [],
      deciding: null,
    }),
    o({
      id: 'e',
      gold: 'NOT_ENOUGH_EVIDENCE',
      predicted: 'NOT_ENOUGH_EVIDENCE',
      verdictStatus: 'error',
      kind: 'nei',
      top10: [],
      deciding: 'not shown',
      error: 'QUERY_EMPTY: empty',
    }),
  ];
  const s = scoreNews(outcomes);

  it('scores labelled claims only, MIXED as NOT_ENOUGH_EVIDENCE, and counts true claims called false', () => {
    expect(s.claims).toBe(5);
    expect(s.verdict.accuracy).toBe(0.8); // a, c, d (MIXED→NEI), e right; b wrong
    expect(s.verdict.confusion.NOT_ENOUGH_EVIDENCE).toEqual({ SUPPORTED: 0, REFUTED: 0, NOT_ENOUGH_EVIDENCE: 1, MIXED: 1 });
    expect(s.verdict.flipped).toMatchObject({ n: 1, of: 2, rate: 0.5 });
    expect(s.verdict.committed).toEqual({ n: 4, correct: 3, precision: 0.75, coverage: 0.8 });
  });

  it('measures retrieval of the deciding article (NEI claims apart) and where its sentence was shown', () => {
    expect(s.retrieval).toEqual({ 'hit@10': 0.6667, hits: 2, of: 3, 'hit@10_nei_closest': 0 });
    expect(s.deciding_sentence.SUPPORTED).toEqual({ supports: 1, refutes: 1, neutral: 0, 'not shown': 0 });
    expect(s.by_corpus).toEqual({ bbc: { n: 4, accuracy: 0.75 }, reuters: { n: 1, accuracy: 1 } });
    expect(s.by_kind.nei).toEqual({ n: 2, accuracy: 1 });
  });

  it('reports verdicts on keyword queries, failed queries and the goals', () => {
    expect(s.keywords).toEqual({ n: 1, with_verdict: 1, items: [{ id: 'k', query: 'Xbox price', verdict: 'REFUTED', status: 'ok' }] });
    expect(s.failed).toEqual([{ id: 'e', error: 'QUERY_EMPTY: empty' }]);
    expect(s.goals.map((g) => [g.name, g.ok])).toEqual([
      ['true claims marked REFUTED (rate)', false],
      ['precision of committed verdicts', false],
      ['macro-F1', true],
      ['false claims called REFUTED (rate)', true],
      ['false claims called SUPPORTED (rate)', true],
      ['the most confident 20% of committed verdicts right', false],
    ]);
    expect(s.false_claims).toEqual({ n: 1, refuted: 1, supported: 0, refuted_rate: 1, supported_rate: 0 });
    expect(s.top20).toEqual({ n: 1, precision: 0 });
    const text = formatNews(s, 'news: test');
    expect(text).toMatch(/^news: test/);
    expect(text).toMatch(/true claims marked REFUTED: 1 of 2 \(rate 0\.5000\)/);
    expect(text).toMatch(/"Xbox price" → REFUTED/);
    expect(text).toMatch(/\[FAIL\] precision of committed verdicts 0\.7500 \(≥ 0\.85\)/);
    expect(text).toMatch(/\n\s+10%\s+1\s+0\.9000\s+0\.0000\n/);
  });

  it('claims the corpus does not cover: a verdict or a sentence shown for or against is counted, and fails the goal', () => {
    const off = (id: string, predicted: ClaimOutcome['predicted'], shown: { supports: number; refutes: number }) =>
      o({ id, gold: 'NOT_ENOUGH_EVIDENCE', predicted, kind: 'offtopic', doc: null, top10: [], deciding: null, shown });
    const t = scoreNews([off('x', 'NOT_ENOUGH_EVIDENCE', { supports: 0, refutes: 0 }), off('y', 'MIXED', { supports: 1, refutes: 1 })]);
    expect(t.offtopic).toEqual({ n: 2, with_verdict: 1, with_stance_shown: 1 });
    expect(t.goals.find((g) => g.name.startsWith('off-topic'))).toMatchObject({ value: 1, ok: false });
    expect(formatNews(t, 'news')).toMatch(/off-topic claims: 2, given a verdict 1, with a sentence shown for or against 1/);
  });
});
