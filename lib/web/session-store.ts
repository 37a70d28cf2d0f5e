/**
 * The server-side half of admin sessions: the signed cookie (lib/web/session.ts) names a session id,
 * and the session is live only while its row is in `admin_sessions`. Signing out deletes the row, so
 * a cookie copied before sign-out is refused afterwards; "sign out everywhere" deletes every row of
 * the user. Shared by every web process through the database.
 */
import type { Db } from '../db/client';
import type { Session } from './session';

export async function recordSession(db: Db, session: Session, userAgent: string | null, now = new Date()): Promise<void> {
  // Expired rows are dropped as new sessions start: the table holds only what can still be used.
  await db.adminSession.deleteMany({ where: { expiresAt: { lte: now } } });
  await db.adminSession.create({
    data: {
      id: session.sid,
      user: session.user,
      createdAt: new Date(session.issuedAt),
      expiresAt: new Date(session.expiresAt),
      userAgent: userAgent?.slice(0, 300) ?? null,
    },
  });
}

/** True while the session has not been signed out (and has not expired). */
export async function isSessionLive(db: Db, session: Pick<Session, 'sid' | 'user'>, now = new Date()): Promise<boolean> {
  const row = await db.adminSession.findUnique({ where: { id: session.sid }, select: { user: true, expiresAt: true } });
  return row !== null && row.user === session.user && row.expiresAt > now;
}

/** Ends one session. */
export async function revokeSession(db: Db, sid: string): Promise<number> {
  return (await db.adminSession.deleteMany({ where: { id: sid } })).count;
}

/** Ends every session of the user (on every device); returns how many were live. */
export async function revokeAllSessions(db: Db, user: string, now = new Date()): Promise<number> {
  const live = await db.adminSession.count({ where: { user, expiresAt: { gt: now } } });
  await db.adminSession.deleteMany({ where: { user } });
  return live;
}

export async function countLiveSessions(db: Db, user: string, now = new Date()): Promise<number> {
  return db.adminSession.count({ where: { user, expiresAt: { gt: now } } });
}
