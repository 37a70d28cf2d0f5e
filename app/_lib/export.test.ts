import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../ranking/types';
import { exportDocument, neutralizeFormula, toCsv } from './export';

const response = {
  query: 'The bridge is closed',
  kind: 'claim',
  page: 2,
  k: 2,
  total: 7,
  asOf: '2024-06-01T00:00:00.000Z',
  halfLifeDays: 365,
  verdictStatus: 'ok',
  verdict: {
    label: 'SUPPORTED',
    confidence: 0.71,
    model: 'nli',
    evidence: {
      supports: [
        {
          snippetId: 11,
          sentence: 's',
          title: 't',
          url: 'u',
          source: 'x',
          publishedAt: null,
          stance: 'supports',
          confidence: 0.9,
          weight: 1,
        },
      ],
      refutes: [],
      neutral: [
        {
          snippetId: 11,
          sentence: 's2',
          title: 't',
          url: 'u',
          source: 'x',
          publishedAt: null,
          stance: 'neutral',
          confidence: 0.4,
          weight: 1,
        },
      ],
    },
  },
  results: [
    {
      snippetId: 11,
      articleId: 1,
      position: 0,
      sentenceStart: 0,
      sentenceEnd: 2,
      title: '=HYPERLINK("http://evil.example","click")',
      url: 'https://a.example/1',
      source: 'Metro, "Herald"',
      publishedAt: '2019-03-01T09:00:00.000Z',
      text: 'The bridge closed.\nDrivers were diverted.',
      evidence: [{ text: 'The bridge closed.', start: 0, end: 18, score: 0.8 }],
      score: 0.5,
      scores: { bm25: 3.2, bm25Rank: 1, dense: 0.6, denseRank: 2, fused: 0.9, rerank: null, recency: 0.25, final: 0.5 },
    },
    {
      snippetId: 12,
      articleId: 2,
      position: 0,
      sentenceStart: 0,
      sentenceEnd: 1,
      title: 'Other',
      url: 'corpus://x/2',
      source: 'X',
      publishedAt: null,
      text: '-5 degrees',
      evidence: [],
      score: 0.1,
      scores: { bm25: null, bm25Rank: null, dense: 0.2, denseRank: 9, fused: 0.1, rerank: null, recency: 1, final: 0.1 },
    },
  ],
} as unknown as SearchResponse;

describe('export', () => {
  const prov = new Map([
    [1, { publishedAtSource: 'item', fetchedAt: '2019-03-01T10:00:00.000Z', textSource: 'readability', feedUrl: 'https://a.example/rss' }],
  ]);
  const doc = exportDocument(response, prov, { searchUrl: 'http://x/search?q=a', now: new Date('2024-06-02T00:00:00Z') });

  it('carries provenance, ranks across pages and the stance the verdict model gave (its most confident reading)', () => {
    expect(doc.results.map((r) => [r.rank, r.publishedAtSource, r.feedUrl, r.stance, r.stanceConfidence])).toEqual([
      [3, 'item', 'https://a.example/rss', 'supports', 0.9],
      [4, null, null, null, null],
    ]);
    expect(doc.verdict).toEqual({ label: 'SUPPORTED', confidence: 0.71, model: 'nli' });
  });

  it('writes RFC 4180 CSV with a BOM; formula-looking cells are neutralised', () => {
    const csv = toCsv(doc);
    expect(csv.startsWith('\ufeffrank,title,source,url,publishedAt,publishedAtSource')).toBe(true);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csv).toContain('"Metro, ""Herald"""');
    expect(csv).toContain('"The bridge closed.\nDrivers were diverted."');
    expect(csv).toContain(",'-5 degrees,");
    expect(neutralizeFormula('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(neutralizeFormula('plain')).toBe('plain');
  });
});
