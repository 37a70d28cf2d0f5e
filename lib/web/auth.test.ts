import { describe, expect, it } from 'vitest';
import { cookieFrom, sessionOf, type AuthContext } from './auth';
import { createSessionToken } from './session';

const auth: AuthContext = { secret: 's'.repeat(32), user: 'editor', hash: 'scrypt$stored', fingerprint: 'fp', ttlSeconds: 3600 };
const valid = () => createSessionToken(auth.secret, { user: auth.user, fingerprint: auth.fingerprint, ttlSeconds: 3600 });

describe('the session cookie is read one way by every reader (proxy, API, pages)', () => {
  it('with two quin_session cookies, the first one counts (the most specific path, RFC 6265 5.4)', () => {
    const a = valid();
    const b = valid();
    expect(cookieFrom(`quin_session=${a.token}; quin_session=${b.token}`, 'quin_session')).toBe(a.token);
    expect(sessionOf(auth, `quin_session=${a.token}; quin_session=${b.token}`)?.sid).toBe(a.session.sid);
    expect(sessionOf(auth, `other=1; quin_session=${b.token}; quin_session=${a.token}`)?.sid).toBe(b.session.sid);
    // A forged first cookie is not skipped for a valid one behind it: the request is not signed in.
    expect(sessionOf(auth, `quin_session=forged.value; quin_session=${a.token}`)).toBeNull();
  });
});
