import type { Metadata } from 'next';
import Link from 'next/link';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Signed out', robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Where sign-out lands: it says what happened (the session is revoked on the server, not only forgotten by this browser). */
export default async function SignedOutPage({ searchParams }: Props) {
  const everywhere = (await searchParams).everywhere;
  const n = typeof everywhere === 'string' && /^\d{1,6}$/.test(everywhere) ? Number(everywhere) : null;
  return (
    <div className="card login" data-testid="signed-out">
      <h1>{n === null ? 'You are signed out' : 'You are signed out everywhere'}</h1>
      <p>
        {n === null
          ? 'Your admin session has ended on the server: the session cookie no longer works, even a copy of it.'
          : `Every admin session has ended on the server (${n === 1 ? '1 session' : `${n} sessions`}, on every browser and device): none of their cookies works any more.`}
      </p>
      <p>
        <Link className="button" href="/admin/login">
          Sign in again
        </Link>{' '}
        <Link className="button button--quiet" href="/">
          Go to search
        </Link>
      </p>
    </div>
  );
}
