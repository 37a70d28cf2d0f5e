/** Admin sign-in and sign-out: credentials check with rate limit, cookies, and the form flows' redirects. */
import crypto from 'node:crypto';
import { createError } from '../../lib/errors';
import { processMetrics } from '../../lib/web/metrics';
import { verifyPassword } from '../../lib/web/password';
import { createSessionToken, csrfTokenFor, serializeCookie, SESSION_COOKIE, type Session } from '../../lib/web/session';
import { isHttps } from '../../lib/web/auth';
import { forgetInitialPassword } from '../../lib/web/secrets';
import { recordSession } from '../../lib/web/session-store';
import { auth, services } from './services';

function sameText(a: string, b: string): boolean {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

export interface SignedIn {
  session: Session;
  cookie: string;
  csrfToken: string;
}

export async function signIn(creds: { user: string; password: string }, client: string, req: Request): Promise<SignedIn> {
  const { loginLimiter, db } = await services();
  const m = processMetrics().logins;
  const rate = loginLimiter.take(client);
  if (!rate.allowed) {
    m.inc({ outcome: 'rate_limited' });
    throw createError('RATE_LIMITED', `too many sign-in attempts: try again in ${Math.ceil(rate.retryAfterSeconds / 60)} min`, {
      retryAfterSeconds: rate.retryAfterSeconds,
    });
  }
  const a = await auth();
  if (!a.hash) throw createError('UNAUTHORIZED', 'admin sign-in is not configured (set QUIN_ADMIN_PASSWORD_HASH)');
  // Both checks always run, so the time taken does not say which one failed.
  const userOk = sameText(creds.user, a.user);
  const passwordOk = await verifyPassword(creds.password, a.hash);
  if (!userOk || !passwordOk) {
    m.inc({ outcome: 'failed' });
    throw createError('UNAUTHORIZED', 'wrong user name or password');
  }
  m.inc({ outcome: 'ok' });
  loginLimiter.reset(client);
  // A generated password has been used: its clear copy goes (only its hash stays).
  const { config } = await services();
  if (!config.adminPasswordHash) forgetInitialPassword(config);
  const { token, session } = createSessionToken(a.secret, { user: a.user, fingerprint: a.fingerprint, ttlSeconds: a.ttlSeconds });
  await recordSession(db, session, req.headers.get('user-agent'));
  const cookie = serializeCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: isHttps(req.headers, req.url),
    maxAge: a.ttlSeconds,
  });
  return { session, cookie, csrfToken: csrfTokenFor(a.secret, session) };
}

export function clearSessionCookie(req: Request): string {
  return serializeCookie(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', secure: isHttps(req.headers, req.url), maxAge: 0 });
}

/** Where a form may send the admin after signing in: a local admin path only (no open redirect). */
export function safeNext(value: unknown): string {
  const s = typeof value === 'string' ? value : '';
  return /^\/admin(\/|\?|$)/.test(s) && !s.startsWith('//') && !/[\\\r\n]/.test(s) ? s : '/admin';
}

export function seeOther(location: string, headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  h.set('location', location);
  h.set('cache-control', 'no-store');
  return new Response(null, { status: 303, headers: h });
}
