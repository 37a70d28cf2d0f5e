import Link from 'next/link';
import type { SearchQuery } from '../api/search/schema';
import { followHref } from '../_lib/follow';
import { searchHref } from '../_lib/search-url';

function exportHref(query: SearchQuery, format: 'csv' | 'json'): string {
  const qs = searchHref(query).split('?')[1] ?? '';
  return `/api/export?${qs}${qs ? '&' : ''}format=${format}`;
}

/** The journalists' tools over a search: passages or stories, follow it as a feed, export what it found. */
export function SearchTools({ query, view }: { query: SearchQuery; view: 'passages' | 'stories' }) {
  const storiesHref = searchHref({ ...query, page: undefined, k: undefined, sort: undefined }).replace(/^\/search/, '/stories');
  return (
    <nav className="search-tools" aria-label="Search views and tools">
      <span className="tabs" role="group" aria-label="View">
        <Link
          href={searchHref({ ...query, page: undefined })}
          className={`tab${view === 'passages' ? ' tab--on' : ''}`}
          aria-current={view === 'passages' ? 'page' : undefined}
        >
          Passages
        </Link>
        <Link
          href={storiesHref}
          className={`tab${view === 'stories' ? ' tab--on' : ''}`}
          aria-current={view === 'stories' ? 'page' : undefined}
          data-testid="stories-tab"
        >
          Stories
        </Link>
      </span>
      <span className="tools">
        <a
          href={followHref(query)}
          className="tool"
          type="application/atom+xml"
          data-testid="follow-link"
          title="An Atom feed of new coverage matching this search, with the verdict at each entry: paste it into your feed reader"
        >
          <svg aria-hidden="true" width="12" height="12" viewBox="0 0 8 8">
            <circle cx="1.5" cy="6.5" r="1.5" fill="currentColor" />
            <path d="M0 3a5 5 0 0 1 5 5h-1.5A3.5 3.5 0 0 0 0 4.5zM0 0a8 8 0 0 1 8 8H6.5A6.5 6.5 0 0 0 0 1.5z" fill="currentColor" />
          </svg>
          Follow (Atom feed)
        </a>
        {view === 'passages' ? (
          <>
            <a href={exportHref(query, 'csv')} className="tool" download data-testid="export-csv">
              Export CSV
            </a>
            <a href={exportHref(query, 'json')} className="tool" download data-testid="export-json">
              Export JSON
            </a>
          </>
        ) : null}
      </span>
    </nav>
  );
}
