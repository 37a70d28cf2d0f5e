import { describe, expect, it } from 'vitest';
import { weeklyCoverage, weekStart } from './coverage';
import { limitPerArticle, pageOf, passesFilter, sortRanked } from './select';

const d = (s: string) => new Date(s);

describe('passesFilter', () => {
  const f = { from: d('2024-01-01T00:00:00Z'), to: d('2024-01-31T23:59:59Z'), sources: null };
  it('keeps dates inside the inclusive range', () => {
    expect(passesFilter({ source: 'BBC', publishedAt: d('2024-01-01T00:00:00Z') }, f)).toBe(true);
    expect(passesFilter({ source: 'BBC', publishedAt: d('2024-02-01T00:00:00Z') }, f)).toBe(false);
    expect(passesFilter({ source: 'BBC', publishedAt: d('2023-12-31T23:59:59Z') }, f)).toBe(false);
  });
  it('drops undated snippets under a date bound but keeps them without one', () => {
    expect(passesFilter({ source: 'BBC', publishedAt: null }, f)).toBe(false);
    expect(passesFilter({ source: 'BBC', publishedAt: null }, { from: null, to: null, sources: null })).toBe(true);
  });
  it('matches source names exactly, as the BM25 index does', () => {
    const s = { from: null, to: null, sources: new Set(['BBC News']) };
    expect(passesFilter({ source: 'BBC News ', publishedAt: null }, s)).toBe(true);
    expect(passesFilter({ source: 'bbc news', publishedAt: null }, s)).toBe(false);
    expect(passesFilter({ source: 'Reuters', publishedAt: null }, s)).toBe(false);
  });
});

describe('sortRanked', () => {
  const items = [
    { snippetId: 1, publishedAt: d('2024-01-01'), tier: 1, final: 0.9 },
    { snippetId: 2, publishedAt: null, tier: 0, final: 0.2 },
    { snippetId: 3, publishedAt: d('2024-03-01'), tier: 0, final: 0.5 },
    { snippetId: 4, publishedAt: d('2024-03-01'), tier: 0, final: 0.7 },
  ];
  it('relevance: reranked tier first, then score', () => {
    expect(sortRanked(items, 'relevance').map((i) => i.snippetId)).toEqual([4, 3, 2, 1]);
  });
  it('newest: by date, undated last, then score', () => {
    expect(sortRanked(items, 'newest').map((i) => i.snippetId)).toEqual([4, 3, 1, 2]);
  });
});

describe('limitPerArticle and pageOf', () => {
  const items = [1, 1, 2, 1, 3, 2].map((articleId, i) => ({ articleId, i }));
  it('keeps the first n of each article in order; 0 keeps all', () => {
    expect(limitPerArticle(items, 1).map((x) => x.i)).toEqual([0, 2, 4]);
    expect(limitPerArticle(items, 2).map((x) => x.i)).toEqual([0, 1, 2, 4, 5]);
    expect(limitPerArticle(items, 0)).toHaveLength(6);
  });
  it('pages 1-based and returns an empty page past the end', () => {
    expect(pageOf([1, 2, 3, 4, 5], 2, 2)).toEqual([3, 4]);
    expect(pageOf([1, 2, 3, 4, 5], 3, 2)).toEqual([5]);
    expect(pageOf([1, 2, 3], 9, 2)).toEqual([]);
  });
});

describe('weeklyCoverage', () => {
  it('starts weeks on Monday (UTC)', () => {
    expect(weekStart(d('2024-06-02T23:00:00Z')).toISOString().slice(0, 10)).toBe('2024-05-27'); // a Sunday
    expect(weekStart(d('2024-06-03T00:00:00Z')).toISOString().slice(0, 10)).toBe('2024-06-03'); // a Monday
  });
  it('counts distinct articles and snippets per week and fills empty weeks', () => {
    const out = weeklyCoverage([
      { articleId: 1, publishedAt: d('2024-06-03T10:00:00Z') },
      { articleId: 1, publishedAt: d('2024-06-04T10:00:00Z') },
      { articleId: 2, publishedAt: d('2024-06-05T10:00:00Z') },
      { articleId: 3, publishedAt: d('2024-06-19T10:00:00Z') },
      { articleId: 4, publishedAt: null },
    ]);
    expect(out).toEqual([
      { week: '2024-06-03', articles: 2, snippets: 3 },
      { week: '2024-06-10', articles: 0, snippets: 0 },
      { week: '2024-06-17', articles: 1, snippets: 1 },
    ]);
    expect(weeklyCoverage([{ articleId: 1, publishedAt: null }])).toEqual([]);
  });
  it('keeps at most ten years of weeks', () => {
    const out = weeklyCoverage([
      { articleId: 1, publishedAt: d('1990-01-01') },
      { articleId: 2, publishedAt: d('2024-01-01') },
    ]);
    expect(out).toHaveLength(520);
    expect(out.at(-1)).toEqual({ week: '2024-01-01', articles: 1, snippets: 1 });
  });
});
