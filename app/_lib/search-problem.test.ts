/** Problems said in plain words that name the control to change. */
import { describe, expect, it } from 'vitest';
import { isQuinError, type QuinError } from '../../lib/errors';
import { rankingOptions } from '../../ranking';
import { resolveRequest } from '../../ranking/request';
import { loadConfig } from '../../lib/config';
import { searchProblem } from './search-problem';
import { parsePageParams } from './search-url';

const options = rankingOptions(loadConfig({ env: {}, configFile: null }));
const now = new Date('2025-11-25T12:41:14.894Z');

function problemOf(req: Record<string, unknown>) {
  try {
    resolveRequest({ q: 'harbour bridge', ...req }, options, now);
  } catch (e) {
    if (isQuinError(e)) return searchProblem(e as QuinError);
    throw e;
  }
  throw new Error('accepted');
}

describe('search problems for people', () => {
  it('names the date controls when the range is empty, with readable dates', () => {
    const p = problemOf({ from: '2025-11-25', to: '2018-04-30' });
    expect(p.title).toBe('No date can match these filters');
    expect(p.message).toBe(
      'The “From” date (25 November 2025) is after the “To” date (30 April 2018). Change the “From” date or the “To” date under Refine, or remove one of them.',
    );
    const age = problemOf({ maxAgeDays: 7, to: '2018-04-30' });
    expect(age.message).toContain(
      '“Maximum age” (the past 7 days) starts on 18 November 2025, after the “To” date (30 April 2018). Change “Maximum age” or the “To” date',
    );
    expect(age.message).not.toMatch(/T\d\d:|Z\)/);
    // "As of" bounds the publication date too: a "From" date after it names the "As of" control.
    const asOf = problemOf({ from: '2025-01-01', asOf: '2024-06-01' });
    expect(asOf.message).toBe(
      'The “From” date (1 January 2025) is after the “As of” date (1 June 2024). Change the “From” date or the “As of” date under Refine, or remove one of them.',
    );
  });

  it('says how long the query is and where to shorten it', () => {
    const p = problemOf({ q: 'x'.repeat(1200) });
    expect(p).toEqual({
      title: 'Your query is too long',
      message: 'It has 1,200 characters; the limit is 1,000. Shorten it in the search box: one claim or question at a time works best.',
    });
  });

  it('turns other bad parameters into words plus the control to change', () => {
    const p = parsePageParams({ q: 'ok', halfLifeDays: 'soon' });
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(p.message).toBe(
      'The recency half-life (halfLifeDays) must be a number of days or `off`. Change “Recency half-life” under Refine.',
    );
    const long = parsePageParams({ q: 'word '.repeat(300) });
    expect(long.ok || long.title).toBe('Your query is too long');
  });
});
