/**
 * The one search call of the web service (pages and JSON API): parameters validated with the search
 * contract's schema and the limits of the settings (the same the pipeline applies), then the ranking
 * pipeline, with the per-client rate limit and the latency histogram of /metrics.
 */
import type { z } from 'zod';
import { createError, isQuinError } from '../../lib/errors';
import { searchGate } from '../../lib/web/load-shed';
import { processMetrics } from '../../lib/web/metrics';
import { searchShed } from '../../lib/web/shed-log';
import {
  parseRequest,
  PUBLIC_LIMITS,
  requestError,
  search,
  type SearchLimits,
  type SearchParams,
  type SearchResponse,
} from '../../ranking';
import { searchContext, services } from './services';

/** The limits every search of this process is held to (QUIN_MAX_QUERY_CHARS, the public page size). */
export async function searchLimits(): Promise<SearchLimits> {
  return { maxQueryChars: (await services()).config.maxQueryChars, maxK: PUBLIC_LIMITS.maxK };
}

/** Validates search parameters (query-string form); throws the QuinError the API and the page report. */
export async function parseSearch(raw: unknown): Promise<SearchParams> {
  return parseRequest(raw, await searchLimits());
}

const partSchemas = new WeakMap<object, Map<string, z.ZodType>>();

/**
 * Validates the parameters of a contract built from the search's (export, follow, stories,
 * fact-checks: `schemaFor(limits)`) at this server's limits, with the search's errors in plain words.
 */
export async function parseSearchPart<S extends z.ZodType>(raw: unknown, schemaFor: (limits: SearchLimits) => S): Promise<z.output<S>> {
  const limits = await searchLimits();
  const key = `${limits.maxQueryChars}:${limits.maxK}`;
  const built = partSchemas.get(schemaFor) ?? partSchemas.set(schemaFor, new Map()).get(schemaFor)!;
  const schema = (built.get(key) ?? built.set(key, schemaFor(limits)).get(key)!) as S;
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw requestError(parsed.error, limits, raw);
  return parsed.data;
}

/** Throws RATE_LIMITED (with retryAfterSeconds in details) when the client has searched too often. */
export async function checkSearchRate(client: string): Promise<void> {
  const d = (await services()).searchLimiter.take(client);
  if (!d.allowed) {
    processMetrics().searches.inc({ outcome: 'rate_limited' });
    throw createError('RATE_LIMITED', `too many searches: try again in ${d.retryAfterSeconds} s`, {
      retryAfterSeconds: d.retryAfterSeconds,
    });
  }
}

export async function runSearch(q: SearchParams): Promise<SearchResponse> {
  const m = processMetrics();
  const t0 = performance.now();
  try {
    // Bounded: beyond the gate's slots and short queue, OVERLOADED (503, Retry-After) at once.
    const response = await searchGate().run(async () => search(q, await searchContext()));
    m.searches.inc({ outcome: 'ok' });
    return response;
  } catch (e) {
    // A refusal is counted and logged here, where it is made (once a minute at most: lib/web/shed-log.ts).
    if (isQuinError(e, 'OVERLOADED')) searchShed(e.message);
    else m.searches.inc({ outcome: isQuinError(e) && e.status < 500 ? 'invalid' : 'error' });
    throw e;
  } finally {
    m.searchLatency.observe((performance.now() - t0) / 1000);
  }
}
