import Link from 'next/link';
import type { SearchQuery } from '../api/search/schema';
import { searchHref } from '../_lib/search-url';

export function Pagination({ query, total }: { query: SearchQuery; total: number }) {
  const pages = Math.max(1, Math.ceil(total / query.k));
  if (pages <= 1) return null;
  const page = Math.min(query.page, pages);
  return (
    <nav className="pagination" aria-label="Result pages">
      {page > 1 ? (
        <Link className="button button--quiet" href={searchHref(query, { page: page - 1 })} rel="prev">
          ← Previous
        </Link>
      ) : null}
      <span className="muted small">
        Page {page} of {pages.toLocaleString('en')}
      </span>
      {page < pages ? (
        <Link className="button button--quiet" href={searchHref(query, { page: page + 1 })} rel="next">
          Next →
        </Link>
      ) : null}
    </nav>
  );
}
