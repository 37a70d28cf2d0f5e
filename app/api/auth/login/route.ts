import { createError, isQuinError } from '../../../../lib/errors';
import { isZodError, readableZodError, jsonResponse } from '../../../../lib/web/http';
import { isCrossSite, verifyLoginCsrfToken } from '../../../../lib/web/session';
import { safeNext, seeOther, signIn } from '../../../_lib/admin-auth';
import { api, clientOf, parseJsonBody } from '../../../_lib/api';
import { formFields, isFormPost, withFlash } from '../../../_lib/forms';
import { auth } from '../../../_lib/services';
import { loginBody } from './schema';

export const dynamic = 'force-dynamic';

/** The sign-in form: 303 to the dashboard with the cookie, or back to the form with a notice. */
async function formSignIn(req: Request): Promise<Response> {
  const f = await formFields(req);
  const next = safeNext(f.next);
  try {
    if (!verifyLoginCsrfToken((await auth()).secret, f.csrf)) throw createError('FORBIDDEN', 'the sign-in form expired: please try again');
    const s = await signIn(loginBody.parse(f), clientOf(req), req);
    return seeOther(next, { 'set-cookie': s.cookie });
  } catch (e) {
    if (!isZodError(e) && !isQuinError(e)) throw e;
    const text = isZodError(e) ? readableZodError(e) : e.message;
    return seeOther(
      await withFlash(`/admin/login?next=${encodeURIComponent(next)}`, {
        kind: 'error',
        text: text.charAt(0).toUpperCase() + text.slice(1),
      }),
    );
  }
}

/** POST /api/auth/login: JSON {user, password} → the session cookie and the CSRF token for later calls. */
export const POST = api(async (req) => {
  if (isCrossSite(req.headers, req.headers.get('host'))) throw createError('FORBIDDEN', 'cross-site sign-in refused');
  if (isFormPost(req)) return formSignIn(req);
  const body = await parseJsonBody(req, loginBody);
  const s = await signIn(body, clientOf(req), req);
  return jsonResponse(
    { user: s.session.user, csrfToken: s.csrfToken, expiresAt: new Date(s.session.expiresAt).toISOString() },
    { headers: { 'set-cookie': s.cookie } },
  );
});
