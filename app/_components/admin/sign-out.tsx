/** Sign out (this browser) and sign out everywhere (every session of the admin): plain forms with the CSRF token. */
export function SignOut({ csrf }: { csrf: string }) {
  return (
    <div className="sign-out">
      <form method="post" action="/api/auth/logout">
        <input type="hidden" name="csrf" value={csrf} />
        <button type="submit" className="button button--quiet button--small">
          Sign out
        </button>
      </form>
      <form method="post" action="/api/auth/logout">
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="everywhere" value="true" />
        <button type="submit" className="button button--quiet button--small" title="End every admin session, on every browser and device">
          Sign out everywhere
        </button>
      </form>
    </div>
  );
}
