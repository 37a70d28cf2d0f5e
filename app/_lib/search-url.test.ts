import { describe, expect, it } from 'vitest';
import { canonicalParams, parsePageParams, searchHref } from './search-url';

describe('search URL state', () => {
  it('drops empty fields and defaults, folds the custom half-life, de-duplicates sources', () => {
    const p = canonicalParams({
      q: ' vaccines cause autism ',
      from: '',
      to: '',
      sort: 'relevance',
      page: '1',
      halfLifeDays: 'custom',
      halfLifeCustom: '90',
      sources: ['BBC', 'Reuters,BBC', ''],
    });
    expect(p.toString()).toBe('q=vaccines+cause+autism&halfLifeDays=90&sources=BBC&sources=Reuters');
  });

  it('round-trips a query through its URL', () => {
    const parsed = parsePageParams({
      q: 'Is the sea level rising?',
      halfLifeDays: 'off',
      maxAgeDays: '30',
      sort: 'newest',
      sources: ['A', 'B'],
      page: '2',
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.query).toMatchObject({
      q: 'Is the sea level rising?',
      halfLifeDays: 'off',
      maxAgeDays: 30,
      sort: 'newest',
      sources: ['A', 'B'],
      page: 2,
      k: 10,
    });
    const href = searchHref(parsed.query);
    const back = parsePageParams(Object.fromEntries(new URL(href, 'http://x').searchParams.entries()) as Record<string, string>);
    expect(href).toBe('/search?q=Is+the+sea+level+rising%3F&page=2&halfLifeDays=off&maxAgeDays=30&sources=A&sources=B&sort=newest');
    expect(back.ok && back.query.q).toBe('Is the sea level rising?');
  });

  it('changes one parameter and removes another', () => {
    expect(searchHref({ q: 'x', page: 3, sort: 'newest' }, { page: undefined, sort: 'relevance' })).toBe('/search?q=x');
  });

  it('reports invalid parameters readably instead of throwing', () => {
    const r = parsePageParams({ q: 'x', halfLifeDays: 'soon', from: '2024-13-40' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toMatch(/halfLifeDays/);
    expect(r.message).toMatch(/from/);
    expect(r.q).toBe('x');
  });
});
