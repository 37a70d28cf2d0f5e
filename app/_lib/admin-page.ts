/**
 * Admin pages: the session from the cookie, or the 401 page (proxy.ts answers 401 first for what it
 * can tell from the signature alone; this check also refuses sessions that were signed out).
 */
import { headers } from 'next/headers';
import { unauthorized } from 'next/navigation';
import { readFlash, type Flash } from '../../lib/web/flash';
import { sessionOf } from '../../lib/web/auth';
import { csrfTokenFor, type Session } from '../../lib/web/session';
import { isSessionLive } from '../../lib/web/session-store';
import { auth, services } from './services';

export interface AdminPage {
  session: Session;
  csrf: string;
  flash: Flash | null;
}

/** The signed-in admin's live session, or null (no cookie, forged, expired, or signed out). */
export async function currentSession(): Promise<Session | null> {
  const a = await auth();
  // The Cookie header read as the API and the proxy read it (lib/web/auth.ts cookieFrom: the first
  // quin_session, the most specific path): Next's cookies() keeps the last of two, so a page and an
  // API call of one request could act under different sessions.
  const signed = sessionOf(a, (await headers()).get('cookie'));
  return signed && (await isSessionLive((await services()).db, signed)) ? signed : null;
}

export async function requireAdminPage(flashToken?: string | string[]): Promise<AdminPage> {
  const session = await currentSession();
  if (!session) unauthorized();
  const a = await auth();
  return {
    session,
    csrf: csrfTokenFor(a.secret, session),
    flash: readFlash(a.secret, typeof flashToken === 'string' ? flashToken : undefined),
  };
}
