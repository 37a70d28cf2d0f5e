import { loginCsrfToken } from '../../../lib/web/session';
import { auth } from '../../_lib/services';

/** The admin sign-in form (a plain form post with a time-bound CSRF token). */
export async function LoginForm({ next }: { next: string }) {
  const a = await auth();
  return (
    <>
      {!a.hash ? (
        <p className="notice notice--warn">
          Sign-in is disabled: no admin password is configured (see QUIN_ADMIN_PASSWORD_HASH in the README).
        </p>
      ) : null}
      <form method="post" action="/api/auth/login" aria-label="Admin sign-in">
        <input type="hidden" name="csrf" value={loginCsrfToken(a.secret)} />
        <input type="hidden" name="next" value={next} />
        <div className="field">
          <label htmlFor="user">User name</label>
          <input id="user" name="user" type="text" autoComplete="username" required autoFocus />
        </div>
        <div className="field">
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
        </div>
        <button className="button" type="submit">
          Sign in
        </button>
      </form>
      <p className="small muted" style={{ marginTop: 16 }}>
        Lost the generated password? Run <code>npx quin admin reset-password</code> on the server.
      </p>
    </>
  );
}
