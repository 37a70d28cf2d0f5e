import { describe, expect, it } from 'vitest';
import {
  createSessionToken,
  csrfTokenFor,
  isCrossSite,
  loginCsrfToken,
  verifyCsrfToken,
  verifyLoginCsrfToken,
  verifySessionToken,
} from './session';

const secret = 'test-secret';
const opts = { user: 'admin', fingerprint: 'fp1', ttlSeconds: 3600, now: 1_000_000 };

describe('signed session cookies', () => {
  const { token, session } = createSessionToken(secret, opts);

  it('accepts its own token until it expires', () => {
    expect(verifySessionToken(secret, token, { user: 'admin', fingerprint: 'fp1', now: 1_000_000 + 3599_000 })).toEqual(session);
    expect(verifySessionToken(secret, token, { user: 'admin', fingerprint: 'fp1', now: 1_000_000 + 3600_000 })).toBeNull();
  });

  it('rejects forged, tampered, foreign and stale tokens', () => {
    const check = (t: string | undefined, expect_ = { user: 'admin', fingerprint: 'fp1', now: 1_000_001 }, s = secret) =>
      verifySessionToken(s, t, expect_);
    expect(check(token, undefined, 'other-secret')).toBeNull();
    const [body, sig] = token.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), exp: 9e15 })).toString(
      'base64url',
    );
    expect(check(`${forged}.${sig}`)).toBeNull();
    expect(check(`${body}.${sig.slice(0, -2)}xx`)).toBeNull();
    expect(check(token, { user: 'root', fingerprint: 'fp1', now: 1_000_001 })).toBeNull();
    // A password change changes the fingerprint: old sessions stop working.
    expect(check(token, { user: 'admin', fingerprint: 'fp2', now: 1_000_001 })).toBeNull();
    expect(check(undefined)).toBeNull();
    expect(check('garbage')).toBeNull();
    expect(check('.')).toBeNull();
  });

  it('derives CSRF tokens from the session', () => {
    const t = csrfTokenFor(secret, session);
    expect(verifyCsrfToken(secret, session, t)).toBe(true);
    expect(verifyCsrfToken(secret, { sid: 'other' }, t)).toBe(false);
    expect(verifyCsrfToken(secret, session, null)).toBe(false);
    expect(verifyCsrfToken(secret, session, t.slice(1))).toBe(false);
  });

  it('issues sign-in form tokens that expire after two hours', () => {
    const t = loginCsrfToken(secret, 5_000_000);
    expect(verifyLoginCsrfToken(secret, t, 5_000_000 + 3600_000)).toBe(true);
    expect(verifyLoginCsrfToken(secret, t, 5_000_000 + 2 * 3600_000 + 1)).toBe(false);
    expect(verifyLoginCsrfToken('other', t, 5_000_001)).toBe(false);
    expect(verifyLoginCsrfToken(secret, '5000000.abc', 5_000_001)).toBe(false);
  });

  it('tells cross-site requests from same-origin and non-browser ones', () => {
    const h = (o: Record<string, string>) => new Headers(o);
    expect(isCrossSite(h({ origin: 'http://127.0.0.1:3000' }), '127.0.0.1:3000')).toBe(false);
    expect(isCrossSite(h({ origin: 'https://evil.example' }), '127.0.0.1:3000')).toBe(true);
    expect(isCrossSite(h({ 'sec-fetch-site': 'cross-site' }), '127.0.0.1:3000')).toBe(true);
    expect(isCrossSite(h({ origin: 'null' }), '127.0.0.1:3000')).toBe(true);
    expect(isCrossSite(h({}), '127.0.0.1:3000')).toBe(false);
  });
});
