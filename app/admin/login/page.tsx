import type { Metadata } from 'next';
import Link from 'next/link';
import { readFlash } from '../../../lib/web/flash';
import { LoginForm } from '../../_components/admin/login-form';
import { safeNext } from '../../_lib/admin-auth';
import { currentSession } from '../../_lib/admin-page';
import { auth } from '../../_lib/services';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Admin sign-in', robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function LoginPage({ searchParams }: Props) {
  const params = await searchParams;
  const a = await auth();
  const next = safeNext(params.next);
  const flash = readFlash(a.secret, typeof params.flash === 'string' ? params.flash : undefined);
  const signedIn = await currentSession();
  return (
    <div className="card login">
      <h1>Admin sign-in</h1>
      {signedIn ? (
        <p className="notice notice--ok">
          You are signed in. <Link href={next}>Go to the dashboard</Link>
        </p>
      ) : null}
      {flash ? (
        <p className={`notice notice--${flash.kind === 'ok' ? 'ok' : 'error'}`} role="alert" data-testid="login-error">
          {flash.text}
        </p>
      ) : null}
      <LoginForm next={next} />
    </div>
  );
}
