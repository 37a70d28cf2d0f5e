import { describe, expect, it } from 'vitest';
import { isQuinError } from '../lib/errors';
import type { RankingOptions } from './context';
import { resolveRequest } from './request';

const opts: RankingOptions = { retrieveK: 500, fusion: 'score', rrfK: 60, bm25Weight: 0.8, halfLifeDays: 365, maxQueryChars: 1000, perArticle: 1, evidenceSentences: 2, maxK: 1000 };
const now = new Date('2024-06-01T00:00:00Z');

function invalid(req: object): string | undefined {
  try {
    resolveRequest({ q: 'x', ...req }, opts, now);
  } catch (e) {
    return isQuinError(e, 'INVALID_INPUT') ? (e.details?.param as string) : `unexpected ${String(e)}`;
  }
  return undefined;
}

describe('resolveRequest', () => {
  it('fills defaults from the options', () => {
    expect(resolveRequest({ q: 'x' }, opts, now)).toMatchObject({ k: 10, page: 1, asOf: now, halfLifeDays: 365, from: null, to: null, sources: null, sort: 'relevance', perArticle: 1, mode: 'hybrid', rerank: true, verdict: true, evidenceTop: 10 });
  });
  it('folds maxAgeDays into from, relative to asOf', () => {
    const r = resolveRequest({ q: 'x', asOf: new Date('2024-01-31T00:00:00Z'), maxAgeDays: 30, from: new Date('2023-01-01') }, opts, now);
    expect(r.from!.toISOString()).toBe('2024-01-01T00:00:00.000Z');
  });
  it('turns the decay off with null or Infinity', () => {
    expect(resolveRequest({ q: 'x', halfLifeDays: null }, opts, now).halfLifeDays).toBeNull();
    expect(resolveRequest({ q: 'x', halfLifeDays: Infinity }, opts, now).halfLifeDays).toBeNull();
    expect(resolveRequest({ q: 'x', halfLifeDays: 30 }, opts, now).halfLifeDays).toBe(30);
  });
  it('rejects bad parameters with INVALID_INPUT naming the parameter', () => {
    expect(invalid({ k: 0 })).toBe('k');
    expect(invalid({ k: 1001 })).toBe('k');
    expect(invalid({ k: 2.5 })).toBe('k');
    expect(invalid({ page: 0 })).toBe('page');
    expect(invalid({ page: 10_000 })).toBe('page');
    expect(invalid({ halfLifeDays: 0 })).toBe('halfLifeDays');
    expect(invalid({ halfLifeDays: -5 })).toBe('halfLifeDays');
    expect(invalid({ halfLifeDays: NaN })).toBe('halfLifeDays');
    expect(invalid({ asOf: new Date('nonsense') })).toBe('asOf');
    expect(invalid({ from: 'yesterday-ish' })).toBe('from');
    expect(invalid({ from: new Date('2024-02-01'), to: new Date('2024-01-01') })).toBe('from');
    expect(invalid({ maxAgeDays: -1 })).toBe('maxAgeDays');
    expect(invalid({ sources: 'BBC' })).toBe('sources');
    expect(invalid({ sort: 'oldest' })).toBe('sort');
    expect(invalid({ mode: 'sparse' })).toBe('mode');
    expect(invalid({ perArticle: -1 })).toBe('perArticle');
  });
  it('accepts ISO strings for dates and ignores empty source names', () => {
    const r = resolveRequest({ q: 'x', from: '2024-01-01' as unknown as Date, sources: [' ', 'BBC'] }, opts, now);
    expect(r.from!.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect([...r.sources!]).toEqual(['BBC']);
  });
});
