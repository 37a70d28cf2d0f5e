import { jsonResponse } from '../../../../lib/web/http';
import { revokeAllSessions, revokeSession } from '../../../../lib/web/session-store';
import { clearSessionCookie, seeOther } from '../../../_lib/admin-auth';
import { adminSession, api, parseJsonBody } from '../../../_lib/api';
import { formFields, isFormPost } from '../../../_lib/forms';
import { services } from '../../../_lib/services';
import { logoutBody } from './schema';

export const dynamic = 'force-dynamic';

async function end(sid: string, user: string, everywhere: boolean): Promise<number> {
  const { db } = await services();
  return everywhere ? revokeAllSessions(db, user) : revokeSession(db, sid);
}

/**
 * POST /api/auth/logout (session + CSRF): the session is deleted on the server (a copied cookie stops
 * working at once) and the cookie cleared; `everywhere` ends every session of the admin. The form
 * lands on /admin/signed-out, which says so.
 */
export const POST = api(async (req) => {
  if (isFormPost(req)) {
    const f = await formFields(req);
    const session = await adminSession(req, f.csrf ?? null);
    const everywhere = logoutBody.parse({ everywhere: f.everywhere }).everywhere;
    const ended = await end(session.sid, session.user, everywhere);
    return seeOther(`/admin/signed-out${everywhere ? `?everywhere=${ended}` : ''}`, { 'set-cookie': clearSessionCookie(req) });
  }
  const session = await adminSession(req);
  const { everywhere } = await parseJsonBody(req, logoutBody);
  const ended = await end(session.sid, session.user, everywhere);
  return jsonResponse({ ok: true, ended }, { headers: { 'set-cookie': clearSessionCookie(req) } });
});
