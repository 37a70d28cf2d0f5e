import { LoginForm } from './_components/admin/login-form';

/** 401: shown (with that status) by admin pages without a valid session. */
export default function Unauthorized() {
  return (
    <div className="card login" data-testid="unauthorized">
      <h1>Sign-in required</h1>
      <p className="muted">This page is for the administrators of this Quin news service.</p>
      <LoginForm next="/admin" />
    </div>
  );
}
