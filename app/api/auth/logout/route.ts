import { jsonResponse } from '../../../../lib/web/http';
import { clearSessionCookie, seeOther } from '../../../_lib/admin-auth';
import { adminSession, api } from '../../../_lib/api';
import { formFields, isFormPost } from '../../../_lib/forms';

export const dynamic = 'force-dynamic';

/** POST /api/auth/logout (session + CSRF): clears the session cookie. */
export const POST = api(async (req) => {
  if (isFormPost(req)) {
    const f = await formFields(req);
    await adminSession(req, f.csrf ?? null);
    return seeOther('/', { 'set-cookie': clearSessionCookie(req) });
  }
  await adminSession(req);
  return jsonResponse({ ok: true }, { headers: { 'set-cookie': clearSessionCookie(req) } });
});
