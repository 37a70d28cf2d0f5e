/**
 * The one search call of the web service (pages and JSON API): validated parameters → the ranking
 * pipeline, with the per-client rate limit and the latency histogram of /metrics.
 */
import { createError, isQuinError } from '../../lib/errors';
import { processMetrics } from '../../lib/web/metrics';
import { search, type SearchRequest, type SearchResponse } from '../../ranking';
import type { SearchQuery } from '../api/search/schema';
import { searchContext, services } from './services';

const DAY_MS = 86_400_000;

/** A bare date as a bound: `from` = the start of that UTC day, `to` = its end. */
function bound(value: string | undefined, edge: 'start' | 'end'): Date | undefined {
  if (!value) return undefined;
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const d = new Date(bare ? `${value}T00:00:00Z` : value);
  return bare && edge === 'end' ? new Date(d.getTime() + DAY_MS - 1) : d;
}

export function toSearchRequest(q: SearchQuery): SearchRequest {
  const req: SearchRequest = { q: q.q, k: q.k, page: q.page, sort: q.sort };
  if (q.halfLifeDays !== undefined) req.halfLifeDays = q.halfLifeDays === 'off' ? null : q.halfLifeDays;
  if (q.asOf) req.asOf = bound(q.asOf, 'start');
  if (q.from) req.from = bound(q.from, 'start');
  if (q.to) req.to = bound(q.to, 'end');
  if (q.maxAgeDays !== undefined) req.maxAgeDays = q.maxAgeDays;
  if (q.sources?.length) req.sources = q.sources;
  if (q.verdict !== undefined) req.verdict = q.verdict;
  if (q.coverage !== undefined) req.coverage = q.coverage;
  return req;
}

/** Throws RATE_LIMITED (with retryAfterSeconds in details) when the client has searched too often. */
export async function checkSearchRate(client: string): Promise<void> {
  const d = (await services()).searchLimiter.take(client);
  if (!d.allowed) {
    processMetrics().searches.inc({ outcome: 'rate_limited' });
    throw createError('RATE_LIMITED', `too many searches: try again in ${d.retryAfterSeconds} s`, { retryAfterSeconds: d.retryAfterSeconds });
  }
}

export async function runSearch(q: SearchQuery): Promise<SearchResponse> {
  const m = processMetrics();
  const t0 = performance.now();
  try {
    const response = await search(toSearchRequest(q), await searchContext());
    m.searches.inc({ outcome: 'ok' });
    return response;
  } catch (e) {
    m.searches.inc({ outcome: isQuinError(e) && e.status < 500 ? 'invalid' : 'error' });
    throw e;
  } finally {
    m.searchLatency.observe((performance.now() - t0) / 1000);
  }
}
