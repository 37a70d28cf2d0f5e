'use client';
import Link from 'next/link';

/** What an error boundary shows: no details of the failure (they are in the server log, under the digest). */
export function ErrorView({ title, error, reset }: { title: string; error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="card empty" role="alert">
      <h1>{title}</h1>
      <p className="muted">Something went wrong on our side. Trying again usually helps; if it keeps happening, tell the administrator.</p>
      {error.digest ? <p className="small muted">Reference: {error.digest}</p> : null}
      <p>
        <button type="button" className="button" onClick={reset}>
          Try again
        </button>{' '}
        <Link href="/" className="button button--quiet">
          New search
        </Link>
      </p>
    </div>
  );
}
