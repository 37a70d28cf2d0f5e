import { describe, expect, it } from 'vitest';
import { isQuinError, type QuinError } from '../lib/errors';
import type { RankingOptions } from './context';
import { parseRequest, resolveRequest } from './request';
import { searchRequestSchema } from './schema';

const opts: RankingOptions = {
  retrieveK: 500,
  fusion: 'score',
  rrfK: 60,
  bm25Weight: 0.8,
  halfLifeDays: 365,
  maxQueryChars: 1000,
  perArticle: 1,
  evidenceSentences: 2,
  relevanceFloor: true,
  oneStoryOnce: true,
  maxK: 100,
};
const now = new Date('2024-06-01T00:00:00Z');

function failure(req: object, o: RankingOptions = opts): QuinError {
  try {
    resolveRequest({ q: 'x', ...req }, o, now);
  } catch (e) {
    if (isQuinError(e)) return e;
    throw e;
  }
  throw new Error(`accepted ${JSON.stringify(req)}`);
}
const invalid = (req: object) => {
  const e = failure(req);
  return e.code === 'INVALID_INPUT' ? (e.details?.param as string) : `unexpected ${e.code}`;
};

describe('resolveRequest', () => {
  it('fills defaults from the options', () => {
    expect(resolveRequest({ q: 'x' }, opts, now)).toMatchObject({
      k: 10,
      page: 1,
      asOf: now,
      halfLifeDays: 365,
      from: null,
      to: null,
      sources: null,
      sort: 'relevance',
      perArticle: 1,
      mode: 'hybrid',
      rerank: true,
      verdict: true,
      evidenceTop: 10,
    });
  });
  it('folds maxAgeDays into from, relative to asOf', () => {
    const r = resolveRequest({ q: 'x', asOf: new Date('2024-01-31T00:00:00Z'), maxAgeDays: 30, from: new Date('2023-01-01') }, opts, now);
    expect(r.from!.toISOString()).toBe('2024-01-01T00:00:00.000Z');
  });
  // "As of" shows the archive as it was that day, so it also bounds the publication date.
  it('makes asOf an upper bound on the publication date: the end of a bare day, else the instant', () => {
    expect(resolveRequest({ q: 'x', asOf: '2024-03-10' }, opts, now).to!.toISOString()).toBe('2024-03-10T23:59:59.999Z');
    expect(resolveRequest({ q: 'x', asOf: '2024-03-10T12:00:00Z' }, opts, now).to!.toISOString()).toBe('2024-03-10T12:00:00.000Z');
    // The earlier of asOf and to bounds the search; without asOf the clock sets no bound.
    expect(resolveRequest({ q: 'x', asOf: '2024-03-10', to: '2024-05-01' }, opts, now).to!.toISOString()).toBe('2024-03-10T23:59:59.999Z');
    expect(resolveRequest({ q: 'x', asOf: '2024-03-10', to: '2024-02-01' }, opts, now).to!.toISOString()).toBe('2024-02-01T23:59:59.999Z');
    expect(resolveRequest({ q: 'x' }, opts, now).to).toBeNull();
    // Recency still counts from the start of the day.
    expect(resolveRequest({ q: 'x', asOf: '2024-03-10' }, opts, now).asOf.toISOString()).toBe('2024-03-10T00:00:00.000Z');
  });
  // A future "as of" date is not taken silently.
  it('drops a future "as of" date with a note: the search runs as of now, with no bound from it', () => {
    const r = resolveRequest({ q: 'x', asOf: '2099-01-01' }, opts, now);
    expect(r.asOf).toEqual(now);
    expect(r.to).toBeNull();
    expect(r.notes).toEqual(['the "as of" date 2099-01-01 is in the future: searched as of now (2024-06-01)']);
    // Today (a bare day counts from its start) and any past day are taken as they are, without a note.
    expect(resolveRequest({ q: 'x', asOf: '2024-06-01' }, opts, now).notes).toEqual([]);
    expect(resolveRequest({ q: 'x', asOf: '2024-03-10' }, opts, now)).toMatchObject({ notes: [], asOf: new Date('2024-03-10T00:00:00Z') });
    // A later instant of today is the future too; an explicit "to" still bounds the search.
    const later = resolveRequest({ q: 'x', asOf: '2024-06-01T12:00:00Z', to: '2024-05-01' }, opts, now);
    expect(later.notes).toHaveLength(1);
    expect(later.to!.toISOString()).toBe('2024-05-01T23:59:59.999Z');
  });
  it('says the range is empty when "from" is after the "as of" day, naming asOf', () => {
    const e = failure({ from: '2024-04-01', asOf: '2024-03-10' });
    expect(e.message).toBe('the date range is empty: the start date (from) 2024-04-01, after the "as of" date (asOf) 2024-03-10');
    expect(e.details).toMatchObject({ reason: 'empty_range', param: 'from', end: 'asOf' });
    expect(failure({ from: '2024-04-01', asOf: '2024-06-01', to: '2024-03-10' }).details).toMatchObject({ end: 'to' });
    // maxAgeDays counts back from asOf, so it never empties the range by itself.
    expect(resolveRequest({ q: 'x', asOf: '2024-03-10', maxAgeDays: 0 }, opts, now).from!.toISOString()).toBe('2024-03-10T00:00:00.000Z');
  });
  it('turns the decay off with "off" (null from code); the configured default otherwise', () => {
    expect(resolveRequest({ q: 'x', halfLifeDays: null }, opts, now).halfLifeDays).toBeNull();
    expect(resolveRequest({ q: 'x' }, opts, now).halfLifeDays).toBe(opts.halfLifeDays);
    expect(resolveRequest({ q: 'x' }, { ...opts, halfLifeDays: null }, now).halfLifeDays).toBeNull();
    expect(resolveRequest({ q: 'x', halfLifeDays: 'off' }, opts, now).halfLifeDays).toBeNull();
    expect(resolveRequest({ q: 'x', halfLifeDays: 30 }, opts, now).halfLifeDays).toBe(30);
  });
  it('reads the query-string form and the programmatic form alike', () => {
    const wire = resolveRequest(
      { q: 'x', k: '5', page: '2', halfLifeDays: '7', from: '2024-01-01', to: '2024-01-31', sources: 'BBC, AP', verdict: 'false' },
      opts,
      now,
    );
    const typed = resolveRequest(
      {
        q: 'x',
        k: 5,
        page: 2,
        halfLifeDays: 7,
        from: new Date('2024-01-01T00:00:00Z'),
        to: new Date('2024-01-31T23:59:59.999Z'),
        sources: ['BBC', 'AP'],
        verdict: false,
      },
      opts,
      now,
    );
    expect(wire).toEqual(typed);
    // A bare `to` day includes the whole day.
    expect(wire.to!.toISOString()).toBe('2024-01-31T23:59:59.999Z');
  });
  it('accepts its own output again (the API validates, then the pipeline)', () => {
    const schema = searchRequestSchema({ maxQueryChars: 1000, maxK: 100 });
    const once = schema.parse({ q: ' x ', k: '3', halfLifeDays: 'off', asOf: new Date('2024-01-01T00:00:00Z'), sources: 'a,b' });
    expect(schema.parse(once)).toEqual(once);
  });
  it('rejects bad parameters with INVALID_INPUT naming the parameter', () => {
    expect(invalid({ k: 0 })).toBe('k');
    expect(invalid({ k: 101 })).toBe('k');
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
    expect(invalid({ sources: 5 })).toBe('sources');
    expect(invalid({ sort: 'oldest' })).toBe('sort');
    expect(invalid({ mode: 'sparse' })).toBe('mode');
    expect(invalid({ perArticle: -1 })).toBe('perArticle');
  });
  it('says what is wrong in plain words; the machine details stay in details.issues', () => {
    const k = failure({ k: 500 });
    expect(k.message).toBe('results per page (k) must be at most 100');
    expect(k.details?.issues).toEqual([expect.objectContaining({ path: 'k', code: 'too_big' })]);
    const range = failure({ from: '2025-11-25', to: '2018-04-30' });
    expect(range.message).toBe('the date range is empty: the start date (from) 2025-11-25, after the end date (to) 2018-04-30');
    expect(range.details).toMatchObject({ reason: 'empty_range', param: 'from' });
    const byAge = failure({ maxAgeDays: 7, to: '2018-04-30' });
    expect(byAge.message).toBe(
      'the date range is empty: the last 7 days (maxAgeDays) start on 2024-05-25, after the end date (to) 2018-04-30',
    );
    expect(byAge.details).toMatchObject({ reason: 'empty_range', param: 'maxAgeDays' });
  });
  it('holds the query to the configured length (QUIN_MAX_QUERY_CHARS) with QUERY_TOO_LONG', () => {
    const e = failure({ q: 'word '.repeat(50) }, { ...opts, maxQueryChars: 100 });
    expect(e.code).toBe('QUERY_TOO_LONG');
    expect(e.message).toBe('the query (q) is too long (249 characters; at most 100)');
    expect(failure({ q: '   ' }).code).toBe('QUERY_EMPTY');
    expect(() => parseRequest({ q: 'word '.repeat(50) }, { maxQueryChars: 1000, maxK: 100 })).not.toThrow();
  });
  it('accepts ISO strings for dates and ignores empty source names', () => {
    const r = resolveRequest({ q: 'x', from: '2024-01-01', sources: [' ', 'BBC'] }, opts, now);
    expect(r.from!.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect([...r.sources!]).toEqual(['BBC']);
  });
  it('reads the articles to leave out from a list or comma-separated text, and refuses what is not an id', () => {
    expect([...resolveRequest({ q: 'x', exclude: '3, 7,3' }, opts, now).exclude!]).toEqual([3, 7]);
    expect([...resolveRequest({ q: 'x', exclude: [12] }, opts, now).exclude!]).toEqual([12]);
    expect(resolveRequest({ q: 'x' }, opts, now).exclude).toBeNull();
    expect(invalid({ exclude: 'seven' })).toBe('exclude');
    expect(resolveRequest({ q: 'x', rerankDepth: '10' }, opts, now).rerankDepth).toBe(10);
    expect(resolveRequest({ q: 'x' }, opts, now).rerankDepth).toBeNull();
    expect(invalid({ rerankDepth: 0 })).toBe('rerankDepth');
    expect(invalid({ exclude: Array.from({ length: 101 }, (_, i) => i + 1) })).toBe('exclude');
  });
});
