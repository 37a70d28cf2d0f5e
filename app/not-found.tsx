import Link from 'next/link';
import { connection } from 'next/server';

/**
 * Rendered on request, never prerendered: the Content-Security-Policy's nonce is made per request
 * (proxy.ts) and Next can put it on its scripts only when it renders the page for that request; a
 * static 404 page would carry scripts the policy blocks.
 */
export default async function NotFound() {
  await connection();
  return (
    <div className="card empty">
      <h1>Page not found</h1>
      <p className="muted">There is nothing at this address.</p>
      <Link className="button" href="/">
        Search the news
      </Link>
    </div>
  );
}
