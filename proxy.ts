/**
 * Runs before every page and API route (Next.js proxy, Node.js runtime):
 *  - a Content-Security-Policy with a fresh nonce per request (Next puts it on its own scripts), so that
 *    even markup that slipped through could not run scripts;
 *  - admin pages and admin APIs answer 401 here, before anything renders, without a valid session
 *    (the handlers check again, and check CSRF on state changes);
 *  - a search refused (over the client's rate, every slot taken) answers 429/503 with Retry-After here.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { getConfig } from './lib/config';
import { authContext, sessionOf } from './lib/web/auth';
import { admit } from './lib/web/admission';
import { clientKey } from './lib/web/rate-limit';

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

/**
 * A search the client may not have now (over its rate, or every slot taken) is answered here with its
 * status and Retry-After, before the page renders or the route runs (lib/web/admission.ts). The web
 * server asks the same before Next.js sees the request; this covers a server started another way.
 * (The pages' and routes' own checks remain for the rare request that slips between.)
 */
function refusedSearch(req: NextRequest): NextResponse | null {
  const refusal = admit({
    method: req.method,
    pathname: req.nextUrl.pathname,
    query: req.nextUrl.searchParams,
    client: clientKey(req.headers),
  });
  return refusal ? new NextResponse(refusal.body, { status: refusal.status, headers: refusal.headers }) : null;
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
  const refused = refusedSearch(req);
  if (refused) return refused;
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const headers = new Headers(req.headers);
  headers.set('content-security-policy', csp(nonce));
  const res = NextResponse.next({ request: { headers } });
  res.headers.set('content-security-policy', csp(nonce));
  return res;
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
