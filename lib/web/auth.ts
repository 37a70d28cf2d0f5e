/**
 * Admin authentication for requests, shared by proxy.ts (every admin page and API answers 401 before
 * rendering) and the route handlers (which check again, and check CSRF on state changes).
 */
import type { Config } from '../config';
import { createError } from '../errors';
import { adminCredentials, credentialFingerprint, sessionSecret } from './secrets';
import { CSRF_HEADER, SESSION_COOKIE, isCrossSite, verifyCsrfToken, verifySessionToken, type Session } from './session';

export interface AuthContext {
  secret: string;
  user: string;
  /** null: no admin password configured or generated; nobody can sign in. */
  hash: string | null;
  fingerprint: string;
  ttlSeconds: number;
}

type AuthConfig = Pick<Config, 'dataDir' | 'sessionSecret' | 'adminUser' | 'adminPasswordHash'>;

/** An admin session's lifetime: a working day, after which the admin signs in again. */
export const SESSION_HOURS = 12;

export function authContext(config: AuthConfig): AuthContext {
  const secret = sessionSecret(config);
  const creds = adminCredentials(config);
  return {
    secret,
    user: creds.user,
    hash: creds.hash,
    fingerprint: credentialFingerprint(secret, creds.hash),
    ttlSeconds: SESSION_HOURS * 3600,
  };
}

/**
 * A cookie's value from a Cookie header: the first of that name. Browsers send the cookie of the
 * most specific path first (RFC 6265 5.4); every reader of the session (proxy, API, pages) uses this.
 */
export function cookieFrom(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function sessionOf(auth: AuthContext, cookieHeader: string | null): Session | null {
  if (!auth.hash) return null;
  return verifySessionToken(auth.secret, cookieFrom(cookieHeader, SESSION_COOKIE), { user: auth.user, fingerprint: auth.fingerprint });
}

/** True when the client reached us over HTTPS (directly, or as a proxy in front says). */
export function isHttps(headers: Headers, url: string): boolean {
  const proto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return proto ? proto === 'https' : url.startsWith('https:');
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The admin session of an API request, or a thrown UNAUTHORIZED (no valid session) / FORBIDDEN
 * (cross-site, or a state change without the CSRF token). `csrfToken` lets form handlers pass the
 * token they read from the body.
 */
export function requireAdminRequest(auth: AuthContext, req: Request, opts: { csrfToken?: string | null } = {}): Session {
  const session = sessionOf(auth, req.headers.get('cookie'));
  if (!session) throw createError('UNAUTHORIZED', 'admin sign-in required (POST /api/auth/login)');
  if (STATE_CHANGING.has(req.method.toUpperCase())) {
    if (isCrossSite(req.headers, req.headers.get('host'))) throw createError('FORBIDDEN', 'cross-site request refused');
    const token = opts.csrfToken !== undefined ? opts.csrfToken : req.headers.get(CSRF_HEADER);
    if (!verifyCsrfToken(auth.secret, session, token))
      throw createError('FORBIDDEN', `missing or invalid CSRF token (send the ${CSRF_HEADER} header from sign-in)`);
  }
  return session;
}
