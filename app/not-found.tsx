import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="card empty">
      <h2>Page not found</h2>
      <p className="muted">There is nothing at this address.</p>
      <Link className="button" href="/">
        Search the news
      </Link>
    </div>
  );
}
