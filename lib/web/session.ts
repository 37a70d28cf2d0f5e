/**
 * Admin sessions as signed cookies (HMAC-SHA256 over a small JSON payload): no session table, valid
 * across processes that share the secret. A session names the user, expires, and carries a
 * fingerprint of the password hash, so changing the password signs every session out.
 * CSRF tokens are derived from the session id (the synchroniser token, without server state).
 */
import crypto from 'node:crypto';

export const SESSION_COOKIE = 'quin_session';

export interface Session {
  user: string;
  sid: string;
  issuedAt: number;
  expiresAt: number;
}

interface Payload {
  u: string;
  sid: string;
  iat: number;
  exp: number;
  fp: string;
}

const mac = (secret: string, data: string) => crypto.createHmac('sha256', secret).update(data).digest('base64url');

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export function createSessionToken(
  secret: string,
  opts: { user: string; fingerprint: string; ttlSeconds: number; now?: number },
): { token: string; session: Session } {
  const now = opts.now ?? Date.now();
  const payload: Payload = {
    u: opts.user,
    sid: crypto.randomBytes(16).toString('base64url'),
    iat: now,
    exp: now + opts.ttlSeconds * 1000,
    fp: opts.fingerprint,
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return {
    token: `${body}.${mac(secret, `session:${body}`)}`,
    session: { user: payload.u, sid: payload.sid, issuedAt: payload.iat, expiresAt: payload.exp },
  };
}

/** The session of a cookie value, or null when it is missing, forged, expired or stale. */
export function verifySessionToken(
  secret: string,
  token: string | undefined | null,
  expect: { user: string; fingerprint: string; now?: number },
): Session | null {
  if (!token || token.length > 1024) return null;
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const body = token.slice(0, dot);
  if (!safeEqual(token.slice(dot + 1), mac(secret, `session:${body}`))) return null;
  let p: Payload;
  try {
    p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  } catch {
    return null;
  }
  const now = expect.now ?? Date.now();
  if (typeof p.exp !== 'number' || p.exp <= now || p.u !== expect.user || typeof p.fp !== 'string' || !safeEqual(p.fp, expect.fingerprint))
    return null;
  return { user: p.u, sid: p.sid, issuedAt: p.iat, expiresAt: p.exp };
}

/** Set-Cookie attributes: HttpOnly, SameSite=Strict, Secure when the request came over HTTPS. */
export function sessionCookieOptions(secure: boolean, maxAgeSeconds: number) {
  return { httpOnly: true, sameSite: 'strict' as const, secure, path: '/', maxAge: maxAgeSeconds };
}

// ---- CSRF -------------------------------------------------------------------------------------

export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_FIELD = 'csrf';

export function csrfTokenFor(secret: string, session: Pick<Session, 'sid'>): string {
  return mac(secret, `csrf:${session.sid}`);
}

export function verifyCsrfToken(secret: string, session: Pick<Session, 'sid'>, token: string | null | undefined): boolean {
  return typeof token === 'string' && safeEqual(token, csrfTokenFor(secret, session));
}

/** For the sign-in form, which has no session yet: a token bound to its issue time (valid 2 hours). */
export function loginCsrfToken(secret: string, now = Date.now()): string {
  const ts = String(now);
  return `${ts}.${mac(secret, `login-csrf:${ts}`)}`;
}

export function verifyLoginCsrfToken(secret: string, token: string | null | undefined, now = Date.now()): boolean {
  if (typeof token !== 'string') return false;
  const [ts, sig] = token.split('.');
  const issued = Number(ts);
  if (!ts || !sig || !Number.isFinite(issued) || now - issued > 2 * 3600_000 || issued - now > 60_000) return false;
  return safeEqual(sig, mac(secret, `login-csrf:${ts}`));
}

/**
 * Browsers say where a request comes from: a state-changing request whose Origin (or Sec-Fetch-Site)
 * names another site is refused even with a valid token. Non-browser clients send neither.
 */
export function isCrossSite(headers: Headers, host: string | null): boolean {
  const site = headers.get('sec-fetch-site');
  if (site === 'cross-site') return true;
  const origin = headers.get('origin');
  if (!origin || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/** A Set-Cookie header value. */
export function serializeCookie(
  name: string,
  value: string,
  opts: { httpOnly?: boolean; sameSite?: 'strict' | 'lax'; secure?: boolean; path?: string; maxAge?: number },
): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${opts.path ?? '/'}`];
  if (opts.maxAge !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(opts.maxAge))}`);
  if (opts.httpOnly) parts.push('HttpOnly');
  if (opts.sameSite) parts.push(`SameSite=${opts.sameSite === 'strict' ? 'Strict' : 'Lax'}`);
  if (opts.secure) parts.push('Secure');
  return parts.join('; ');
}
