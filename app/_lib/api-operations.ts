/**
 * Every JSON API operation, described with the zod schemas its handler validates with. The OpenAPI
 * document is generated from this list, and app/_lib/openapi.test.ts checks that it names exactly the
 * handlers that exist under app/ (and the e2e API tests check real responses against the schemas).
 */
import { z } from 'zod';
import type { ApiOperation } from '../../lib/web/openapi';
import { loginBody, loginResponse } from '../api/auth/login/schema';
import { logoutBody, logoutResponse } from '../api/auth/logout/schema';
import { addFeedBody, deleteFeedQuery, feedList, feedOne, feedRemoved, patchFeedBody } from '../api/feeds/schema';
import { healthQuery, healthResponse } from '../api/health/schema';
import { PUBLIC_LIMITS, type SearchLimits } from '../../ranking/schema';
import { exportQueryFor, exportResponse } from '../api/export/schema';
import { factChecksQueryFor, factChecksResponse } from '../api/fact-checks/schema';
import { followQueryFor } from '../api/follow/schema';
import { searchQueryFor, searchResponse } from '../api/search/schema';
import { storiesQueryFor, storiesResponse } from '../api/stories/schema';
import { checkBody, checkEvent, checkQuery } from '../api/check/schema';

export const apiError = z.object({
  error: z.object({
    code: z.string().describe('A code from lib/errors.ts, e.g. INVALID_INPUT, UNAUTHORIZED, RATE_LIMITED.'),
    message: z.string(),
    issues: z
      .array(
        z.object({ path: z.string(), code: z.string().optional().describe('zod issue code, or e.g. empty_range'), message: z.string() }),
      )
      .optional()
      .describe('The machine details of a 400: which parameters were invalid and how (`message` says it in plain words).'),
  }),
});

const err = (description: string) => ({ description, schema: apiError });
const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } };
const ADMIN_ERRORS = { 401: err('No valid admin session.'), 403: err('Missing or invalid CSRF token, or a cross-site request.') };

/** Every operation, the search parameters held to these limits (the server's settings: QUIN_MAX_QUERY_CHARS). */
export function apiOperations(limits: SearchLimits): ApiOperation[] {
  return [
    {
      method: 'get',
      path: '/api/search',
      operationId: 'search',
      summary: 'Search recent news for evidence on a claim or a question (claims get a verdict when an NLI model is configured).',
      tags: ['search'],
      auth: 'public',
      query: searchQueryFor(limits),
      responses: {
        200: {
          description: 'Ranked snippets with evidence sentences (character offsets into `text`), score breakdowns and the verdict.',
          schema: searchResponse,
        },
        400: err('Invalid parameters, or a query that cannot be searched (empty, too long, no words).'),
        429: { ...err('Too many searches from this client.'), headers: retryAfter },
        503: err('The indexes or models are not available yet.'),
      },
    },
    {
      method: 'post',
      path: '/api/check',
      operationId: 'checkArticle',
      summary:
        'Check an article claim by claim: a URL (fetched with the crawler’s guards: private addresses refused, robots.txt, 5 MB and 15 s caps) or a pasted text. Its check-worthy claims are picked, made to stand alone, split into atomic parts, and each part is checked as a search with the verdict, against the coverage as of the article’s day, the article itself left out.',
      tags: ['search'],
      auth: 'public',
      query: checkQuery,
      body: checkBody,
      responses: {
        200: {
          description:
            'format=ndjson (default): one event a line as the check goes — `article` (the text’s sentences, what was left out and why, the claims and their parts), one `claim` per claim in reading order (its verdict, each part’s verdict and the sentence that decides it), then `done` with the summary; a failure after the first line ends the stream with an `error` event. format=json: the report (checkReport) when done; format=csv: one row per part.',
          contentType: 'application/x-ndjson',
          schema: checkEvent,
        },
        400: err('No URL or text, both, a text past the limit, a body that is not JSON, or invalid options (the message says which).'),
        403: err('The address is private or otherwise not allowed, or robots.txt disallows it.'),
        413: err('The page is larger than the size cap.'),
        415: err('The URL is not a web page.'),
        422: err('No article text could be read from the page.'),
        429: { ...err('Too many checks from this client (a check counts as 5 searches).'), headers: retryAfter },
        502: err('The page could not be fetched.'),
        503: err('The indexes or models are not available yet, or the service is busy.'),
        504: err('The site did not answer in time.'),
      },
    },
    {
      method: 'get',
      path: '/api/export',
      operationId: 'exportSearch',
      summary:
        "A search's results with their provenance (title, source, URL, date and where it came from, passage, evidence sentences, scores, stance) as CSV or JSON.",
      tags: ['search'],
      auth: 'public',
      query: exportQueryFor(limits),
      responses: {
        200: {
          description:
            'The export (a download: Content-Disposition attachment). format=csv: text/csv, one row per passage; format=json: this schema.',
          schema: exportResponse,
        },
        400: err('Invalid parameters, or a query that cannot be searched.'),
        429: { ...err('Too many searches from this client.'), headers: retryAfter },
        503: err('The indexes or models are not available yet.'),
      },
    },
    {
      method: 'get',
      path: '/api/follow',
      operationId: 'followSearch',
      summary:
        "Follow a claim: the search as an Atom 1.0 feed of new matching coverage, each entry with the verdict's state when it appeared (poll it with any feed reader).",
      tags: ['search'],
      auth: 'public',
      query: followQueryFor(limits),
      responses: {
        200: { description: 'Atom 1.0 (RFC 4287).', contentType: 'application/atom+xml' },
        400: err('Invalid parameters, or a query that cannot be searched.'),
        429: { ...err('Too many searches from this client.'), headers: retryAfter },
        503: err('The indexes or models are not available yet.'),
      },
    },
    {
      method: 'get',
      path: '/api/stories',
      operationId: 'stories',
      summary:
        'The coverage matching a search grouped into stories (articles about the same event, by text similarity and time): first and latest report, sources, timeline.',
      tags: ['search'],
      auth: 'public',
      query: storiesQueryFor(limits),
      responses: {
        200: { description: 'Stories, most relevant first.', schema: storiesResponse },
        400: err('Invalid parameters, or a query that cannot be searched.'),
        429: { ...err('Too many searches from this client.'), headers: retryAfter },
        503: err('The indexes or models are not available yet.'),
      },
    },
    {
      method: 'get',
      path: '/api/fact-checks',
      operationId: 'factChecks',
      summary:
        'Published fact-checks (schema.org ClaimReview on crawled or imported pages) that rated the claim: rating, reviewer, date, link.',
      tags: ['search'],
      auth: 'public',
      query: factChecksQueryFor(limits),
      responses: {
        200: { description: 'The matching fact-checks, best match first (none: an empty list).', schema: factChecksResponse },
        400: err('Invalid parameters.'),
        429: { ...err('Too many searches from this client.'), headers: retryAfter },
      },
    },
    {
      method: 'get',
      path: '/api/feeds',
      operationId: 'listFeeds',
      summary: 'Every feed with its crawl health, broken feeds first.',
      tags: ['feeds'],
      auth: 'admin',
      responses: { 200: { description: 'The feeds.', schema: feedList }, 401: ADMIN_ERRORS[401] },
    },
    {
      method: 'post',
      path: '/api/feeds',
      operationId: 'addFeed',
      summary:
        'Add a feed. It is fetched once and must parse; private and loopback addresses are refused unless QUIN_ALLOW_PRIVATE_HOSTS=true.',
      tags: ['feeds'],
      auth: 'admin',
      body: addFeedBody,
      responses: {
        201: { description: 'The feed was added.', schema: feedOne },
        400: err('Not an http(s) URL, not reachable, not allowed, or not a parsable feed (the message says which).'),
        409: err('The feed already exists.'),
        ...ADMIN_ERRORS,
      },
    },
    {
      method: 'patch',
      path: '/api/feeds',
      operationId: 'changeFeed',
      summary: 'Pause, resume or check a feed now, or change its interval or title.',
      tags: ['feeds'],
      auth: 'admin',
      body: patchFeedBody,
      responses: {
        200: { description: 'The feed after the change.', schema: feedOne },
        400: err('Invalid body.'),
        404: err('No such feed.'),
        ...ADMIN_ERRORS,
      },
    },
    {
      method: 'delete',
      path: '/api/feeds',
      operationId: 'removeFeed',
      summary: 'Remove a feed; its articles stay searchable.',
      tags: ['feeds'],
      auth: 'admin',
      query: deleteFeedQuery,
      responses: {
        200: { description: 'The feed was removed.', schema: feedRemoved },
        400: err('Invalid id.'),
        404: err('No such feed.'),
        ...ADMIN_ERRORS,
      },
    },
    {
      method: 'post',
      path: '/api/auth/login',
      operationId: 'login',
      summary: 'Admin sign-in: sets the session cookie (HttpOnly, SameSite=Strict, Secure over HTTPS) and returns the CSRF token.',
      tags: ['auth'],
      auth: 'public',
      body: loginBody,
      responses: {
        200: { description: 'Signed in.', schema: loginResponse },
        400: err('Invalid body.'),
        401: err('Wrong user name or password.'),
        429: { ...err('Too many sign-in attempts from this client.'), headers: retryAfter },
      },
    },
    {
      method: 'post',
      path: '/api/auth/logout',
      operationId: 'logout',
      summary:
        'End the admin session on the server (a copy of its cookie is refused afterwards), or every session of the admin with everywhere=true.',
      tags: ['auth'],
      auth: 'admin',
      body: logoutBody,
      responses: {
        200: { description: 'Signed out; the cookie is cleared.', schema: logoutResponse },
        400: err('Invalid body.'),
        ...ADMIN_ERRORS,
      },
    },
    {
      method: 'get',
      path: '/api/health',
      operationId: 'health',
      summary: 'Liveness and readiness: database, indexes, models, background worker.',
      tags: ['operations'],
      auth: 'public',
      query: healthQuery,
      responses: {
        200: { description: 'Ready (or, with probe=live, alive).', schema: healthResponse },
        503: { description: 'Not ready.', schema: healthResponse },
      },
    },
    {
      method: 'get',
      path: '/metrics',
      operationId: 'metrics',
      summary:
        'Prometheus metrics: search latency, crawl counters and errors by feed status, index sizes, worker up and stuck, Node.js process. Admin sign-in counters only with `Authorization: Bearer <QUIN_METRICS_TOKEN>`.',
      tags: ['operations'],
      auth: 'public',
      responses: { 200: { description: 'Prometheus text exposition format 0.0.4.', contentType: 'text/plain; version=0.0.4' } },
    },
    {
      method: 'get',
      path: '/api/openapi.json',
      operationId: 'openapi',
      summary: 'This document.',
      tags: ['operations'],
      auth: 'public',
      responses: { 200: { description: 'OpenAPI 3.1 document.', contentType: 'application/json' } },
    },
  ];
}

/** With the default limits (the tests compare the document with the handlers). */
export const API_OPERATIONS: ApiOperation[] = apiOperations(PUBLIC_LIMITS);
