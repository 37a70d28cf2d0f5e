/** Admin pages: the session from the cookie, or the 401 page (proxy.ts answers 401 first; this is the second check). */
import { cookies } from 'next/headers';
import { unauthorized } from 'next/navigation';
import { readFlash, type Flash } from '../../lib/web/flash';
import { csrfTokenFor, SESSION_COOKIE, verifySessionToken, type Session } from '../../lib/web/session';
import { auth } from './services';

export interface AdminPage {
  session: Session;
  csrf: string;
  flash: Flash | null;
}

export async function requireAdminPage(flashToken?: string | string[]): Promise<AdminPage> {
  const a = await auth();
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const session = a.hash ? verifySessionToken(a.secret, token, { user: a.user, fingerprint: a.fingerprint }) : null;
  if (!session) unauthorized();
  return { session, csrf: csrfTokenFor(a.secret, session), flash: readFlash(a.secret, typeof flashToken === 'string' ? flashToken : undefined) };
}
