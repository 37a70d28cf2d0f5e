/**
 * Server-side session revocation on the real database: a signed token stays cryptographically valid
 * after sign-out, and only the admin_sessions row decides whether it still opens the dashboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { createSessionToken, verifySessionToken } from './session';
import { countLiveSessions, isSessionLive, recordSession, revokeAllSessions, revokeSession } from './session-store';

const secret = 's3cret';
const make = (now = Date.now(), ttlSeconds = 3600) => createSessionToken(secret, { user: 'admin', fingerprint: 'fp', ttlSeconds, now });

describe('admin session store', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => t.cleanup());

  it('a signed-out session is refused although its token still verifies', async () => {
    const { token, session } = make();
    await recordSession(t.db, session, 'Mozilla/5.0');
    expect(await isSessionLive(t.db, session)).toBe(true);
    expect(await revokeSession(t.db, session.sid)).toBe(1);
    expect(verifySessionToken(secret, token, { user: 'admin', fingerprint: 'fp' })).toEqual(session);
    expect(await isSessionLive(t.db, session)).toBe(false);
    expect(await revokeSession(t.db, session.sid)).toBe(0);
  });

  it('a token that was never recorded (made elsewhere with the secret) is not live', async () => {
    expect(await isSessionLive(t.db, make().session)).toBe(false);
  });

  it('sign out everywhere ends every session of the user and no other', async () => {
    const a = make().session;
    const b = make().session;
    const other = { ...make().session, user: 'someone-else' };
    for (const s of [a, b, other]) await recordSession(t.db, s, null);
    expect(await countLiveSessions(t.db, 'admin')).toBe(2);
    expect(await revokeAllSessions(t.db, 'admin')).toBe(2);
    expect(await isSessionLive(t.db, a)).toBe(false);
    expect(await isSessionLive(t.db, b)).toBe(false);
    expect(await isSessionLive(t.db, other)).toBe(true);
    // A row cannot be borrowed by another user name.
    expect(await isSessionLive(t.db, { sid: other.sid, user: 'admin' })).toBe(false);
  });

  it('expired sessions are not live, and are dropped when the next session starts', async () => {
    const old = make(Date.now() - 7200_000, 60).session;
    await recordSession(t.db, old, null, new Date(old.issuedAt));
    expect(await isSessionLive(t.db, old)).toBe(false);
    await recordSession(t.db, make().session, null);
    expect(await t.db.adminSession.count({ where: { id: old.sid } })).toBe(0);
  });
});
