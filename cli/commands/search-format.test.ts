import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../ranking';
import { formatSearch, highlight } from './search-format';

const text = 'First sentence. Second one here. Third.';
describe('highlight', () => {
  it('marks evidence spans in order, merging overlaps and ignoring bad offsets', () => {
    const ev = (start: number, end: number) => ({ text: text.slice(start, end), start, end, score: 1 });
    expect(highlight({ text, evidence: [ev(16, 32), ev(0, 15)] }, false)).toBe('«First sentence.» «Second one here.» Third.');
    expect(highlight({ text, evidence: [ev(0, 15), ev(5, 20), ev(30, 999)] }, false)).toBe('«First sentence.»« Seco»nd one here. Third.');
    expect(highlight({ text, evidence: [ev(0, 5)] }, true)).toBe('\x1b[1;33mFirst\x1b[0m sentence. Second one here. Third.');
  });
});

describe('formatSearch', () => {
  const res: SearchResponse = {
    query: 'q',
    kind: 'claim',
    page: 2,
    k: 1,
    total: 3,
    results: [
      {
        snippetId: 7,
        articleId: 3,
        position: 0,
        sentenceStart: 0,
        sentenceEnd: 3,
        title: 'A title',
        url: 'https://example.org/a',
        source: 'Example',
        publishedAt: '2024-05-01T00:00:00.000Z',
        text,
        evidence: [{ text: 'Third.', start: 33, end: 39, score: 0.5 }],
        score: 0.25,
        scores: { bm25: 3.2, bm25Rank: 2, dense: null, denseRank: null, fused: 0.5, rerank: null, recency: 0.5, final: 0.25 },
      },
    ],
    verdict: null,
    verdictStatus: 'no_model',
    halfLifeDays: 365,
    asOf: '2024-06-01T00:00:00.000Z',
    timingsMs: { total: 12 },
    models: { encoder: 'e', reranker: null, nli: null, bm25: 'fts5', dense: true },
  };
  it('numbers results across pages and shows source, date, evidence and the breakdown', () => {
    const out = formatSearch(res, { color: false, explain: true });
    expect(out).toContain('claim · 3 matching passages · page 2 · half-life 365 d as of 2024-06-01 · 12 ms');
    expect(out).toContain('2. A title  Example · 2024-05-01 · score 0.2500');
    expect(out).toContain('«Third.»');
    expect(out).toContain('bm25 3.200 (#2) · dense – · fused 0.5000 · final 0.2500 = relevance 0.5000 × recency ×0.5000');
    expect(out).toContain('no verdict: no NLI model configured');
  });
});
