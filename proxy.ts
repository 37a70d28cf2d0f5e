/**
 * Runs before every page and API route (Next.js proxy, Node.js runtime):
 *  - a Content-Security-Policy with a fresh nonce per request (Next puts it on its own scripts), so that
 *    even markup that slipped through could not run scripts;
 *  - admin pages and admin APIs answer 401 here, before anything renders, without a valid session
 *    (the handlers check again, and check CSRF on state changes).
 */
import { NextResponse, type NextRequest } from 'next/server';
import { getConfig } from './lib/config';
import { authContext, sessionOf } from './lib/web/auth';
import { searchGate } from './lib/web/load-shed';
import { processMetrics } from './lib/web/metrics';
import { searchShed } from './lib/web/shed-log';
import { clientKey, searchRateLimiter } from './lib/web/rate-limit';

const ADMIN_PAGE = /^\/admin(\/|$)/;
const ADMIN_API = /^\/api\/(feeds|admin)(\/|$)/;
const PUBLIC_ADMIN_PAGES = new Set(['/admin/login']);

function csp(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function signedIn(req: NextRequest): boolean {
  try {
    return sessionOf(authContext(getConfig()), req.headers.get('cookie')) !== null;
  } catch {
    return false; // misconfiguration: nobody is signed in (the page itself reports the error)
  }
}

const SEARCH_PAGE = /^\/(search|stories)\/?$/;

/**
 * A search page the client may not have now answers with its status before rendering: 429 when the
 * client is over its search rate (the page would only say so), 503 when every search slot is taken
 * (lib/web/load-shed.ts; the JSON API also keeps a short queue). Both with Retry-After. (The page's own checks remain
 * for the rare request that slips between.)
 */
function refusedSearchPage(req: NextRequest, nonce: string): NextResponse | null {
  if (req.method !== 'GET' || !SEARCH_PAGE.test(req.nextUrl.pathname) || !req.nextUrl.searchParams.get('q')?.trim()) return null;
  let limit: number;
  try {
    limit = getConfig().searchRateLimit;
  } catch {
    return null;
  }
  const rate = searchRateLimiter(limit).peek(clientKey(req.headers));
  const gate = searchGate();
  // A page renders more than its search (filters, fact-checks): it is not queued behind busy slots.
  if (rate.allowed && !gate.busy()) return null;
  const [status, title, wait] = rate.allowed ? [503, 'Busy', gate.retryAfterSeconds()] : [429, 'Too many searches', rate.retryAfterSeconds];
  if (status === 503) searchShed(`a search page refused before rendering (${gate.stats().active} searches running)`);
  else processMetrics().searches.inc({ outcome: 'rate_limited' });
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Quin</title><meta name="viewport" content="width=device-width,initial-scale=1"></head><body><main><h1>${title}</h1><p>${
    status === 429 ? 'You have searched often in the last minute.' : 'The service is answering as many searches as it can.'
  } Try again in ${wait} s.</p><p><a href="/">Home</a></p></main></body></html>`;
  return new NextResponse(body, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'retry-after': String(wait),
      'cache-control': 'no-store',
      'content-security-policy': csp(nonce),
    },
  });
}

export function proxy(req: NextRequest) {
  const path = req.nextUrl.pathname;
  const isAdminApi = ADMIN_API.test(path);
  const isAdminPage = ADMIN_PAGE.test(path) && !PUBLIC_ADMIN_PAGES.has(path);
  // Admin pages render the 401 page themselves (unauthorized() in app/_lib/admin-page.ts); here the
  // APIs and every non-GET admin request are refused before any handler runs.
  if ((isAdminApi || (isAdminPage && req.method !== 'GET' && req.method !== 'HEAD')) && !signedIn(req)) {
    return NextResponse.json(
      { error: { code: 'UNAUTHORIZED', message: 'admin sign-in required (POST /api/auth/login)' } },
      { status: 401 },
    );
  }
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const refused = refusedSearchPage(req, nonce);
  if (refused) return refused;
  const headers = new Headers(req.headers);
  headers.set('content-security-policy', csp(nonce));
  const res = NextResponse.next({ request: { headers } });
  res.headers.set('content-security-policy', csp(nonce));
  return res;
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
