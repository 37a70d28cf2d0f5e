import Link from 'next/link';

/** Above the feed table: only feeds with problems, check all now, OPML export and import. */
export function FeedTools({
  csrf,
  problemsOnly,
  problems,
  total,
}: {
  csrf: string;
  problemsOnly: boolean;
  problems: number;
  total: number;
}) {
  return (
    <div className="feed-tools" role="group" aria-label="Feed list tools">
      {problemsOnly ? (
        <Link className="button button--quiet button--small" href="/admin" data-testid="show-all">
          Show all {total} feeds
        </Link>
      ) : (
        <Link
          className="button button--quiet button--small"
          href="/admin?problems=1"
          data-testid="only-problems"
          aria-disabled={problems === 0}
        >
          Only feeds with problems ({problems})
        </Link>
      )}
      <form method="post" action="/admin/feeds">
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="op" value="refresh-all" />
        <button type="submit" className="button button--quiet button--small">
          Check all now
        </button>
      </form>
      <a className="button button--quiet button--small" href="/admin/feeds/opml" download>
        Export OPML
      </a>
      <details className="import-opml">
        <summary className="button button--quiet button--small">Import OPML</summary>
        <form method="post" action="/admin/feeds" encType="multipart/form-data" aria-label="Import an OPML file">
          <input type="hidden" name="csrf" value={csrf} />
          <input type="hidden" name="op" value="import" />
          <label>
            OPML file (a feed reader&apos;s export)
            <input type="file" name="opml" accept=".opml,.xml,text/x-opml,text/xml,application/xml" required />
          </label>
          <button type="submit" className="button button--small">
            Import
          </button>
        </form>
      </details>
    </div>
  );
}
