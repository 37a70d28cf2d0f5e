/**
 * The refusals that need no search: a client over its search rate (429) or a full search gate (503),
 * both with Retry-After, decided before any page or route code runs. Under twenty clients each
 * refusal went through Next.js's whole request path (routing, the proxy, the route handler, response
 * streams): about 2-3 ms of the event loop each, at a hundred and more a second — time taken from
 * the searches being served and from /api/health. scripts/start/web-server.mjs asks this first,
 * through globalThis (it is plain JavaScript outside the bundles), and answers a refusal itself;
 * proxy.ts asks it too, for servers started another way. The route handlers keep their own checks
 * for the requests that get through.
 */
import { getConfig } from '../config';
import { createError } from '../errors';
import { errorBody } from './http';
import { searchGate } from './load-shed';
import { processMetrics } from './metrics';
import { searchRateLimiter } from './rate-limit';
import { searchShed } from './shed-log';

export interface AdmissionRequest {
  method: string;
  pathname: string;
  query: URLSearchParams;
  /** The client's address, as web-server.mjs determined it (lib/web/rate-limit.ts clientKey). */
  client: string;
}

export interface Refusal {
  status: 429 | 503;
  headers: Record<string, string>;
  body: string;
}

/** Pages that run a search: refused while every slot is busy (a page is not queued). */
const SEARCH_PAGE = /^\/(search|stories)\/?$/;
/** API routes that run a search through the gate: refused when the gate and its short queue are full. */
const GATED_API = /^\/api\/(search|export|stories|follow)\/?$/;
/** API routes held to the search rate. */
const RATED_API = /^\/api\/(search|export|stories|follow|fact-checks)\/?$/;

/** The headers next.config.js gives every answer, and a Content-Security-Policy for a page that runs nothing. */
const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

function page(status: 429 | 503, wait: number): Refusal {
  const [title, why] =
    status === 429
      ? ['Too many searches', 'You have searched often in the last minute.']
      : ['Busy', 'The service is answering as many searches as it can.'];
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Quin</title><meta name="viewport" content="width=device-width,initial-scale=1"></head><body><main><h1>${title}</h1><p>${why} Try again in ${wait} s.</p><p><a href="/">Home</a></p></main></body></html>`;
  const csp = "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
  return {
    status,
    headers: { ...COMMON_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp, 'retry-after': String(wait) },
    body,
  };
}

function api(code: 'RATE_LIMITED' | 'OVERLOADED', message: string, wait: number): Refusal {
  const err = createError(code, message, { retryAfterSeconds: wait });
  const { status, body } = errorBody(err);
  processMetrics().httpErrors.inc({ code });
  return {
    status: status as 429 | 503,
    headers: { ...COMMON_HEADERS, 'content-type': 'application/json; charset=utf-8', 'retry-after': String(wait) },
    body: JSON.stringify(body),
  };
}

/** The refusal for this request, or null when it goes on to the page or route. */
export function admit(req: AdmissionRequest): Refusal | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  const isPage = SEARCH_PAGE.test(req.pathname);
  const isApi = RATED_API.test(req.pathname);
  if ((!isPage && !isApi) || !req.query.get('q')?.trim()) return null;
  let limit: number;
  try {
    limit = getConfig().searchRateLimit;
  } catch {
    return null; // misconfiguration: the page or route reports it
  }
  const rate = searchRateLimiter(limit).peek(req.client);
  if (!rate.allowed) {
    processMetrics().searches.inc({ outcome: 'rate_limited' });
    return isPage
      ? page(429, rate.retryAfterSeconds)
      : api('RATE_LIMITED', `too many searches: try again in ${rate.retryAfterSeconds} s`, rate.retryAfterSeconds);
  }
  const gate = searchGate();
  const wait = gate.retryAfterSeconds();
  if (isPage && gate.busy()) {
    // A page renders more than its search (filters, fact-checks): it is not queued behind busy slots.
    searchShed(`a search page refused before rendering (${gate.stats().active} searches running)`);
    return page(503, wait);
  }
  if (GATED_API.test(req.pathname) && gate.saturated()) {
    const { active, waiting } = gate.stats();
    const message = `the service is busy (${active} searches running, ${waiting} waiting): try again in ${wait} s`;
    searchShed(message);
    return api('OVERLOADED', message, wait);
  }
  return null;
}

const KEY = Symbol.for('quin.web.admission');

/** Makes admit() reachable from scripts/start/web-server.mjs (called once per web process, at start). */
export function registerAdmission(): void {
  (globalThis as unknown as Record<symbol, typeof admit>)[KEY] = admit;
}
