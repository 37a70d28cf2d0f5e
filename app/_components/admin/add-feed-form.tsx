/** Add a feed: the server fetches it once and adds it only if it parses. After an error the typed URL stays, and the feeds the page links to can be added in one click. */
export function AddFeedForm({
  csrf,
  defaultInterval,
  url,
  found,
}: {
  csrf: string;
  defaultInterval: number;
  url?: string;
  found?: string[];
}) {
  return (
    <>
      <form method="post" action="/admin/feeds" className="add-feed" aria-label="Add a feed">
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="op" value="add" />
        <div className="field field--url">
          <label htmlFor="feed-url">Add a feed (RSS, Atom or RDF URL)</label>
          <input
            id="feed-url"
            name="url"
            type="url"
            required
            placeholder="https://example.com/news/rss.xml"
            inputMode="url"
            defaultValue={url}
            aria-describedby="feed-url-hint"
          />
          <span id="feed-url-hint" className="small muted">
            or the address of a page that links to its feeds
          </span>
        </div>
        <div className="field field--interval">
          <label htmlFor="feed-interval">Check every (min)</label>
          <input id="feed-interval" name="intervalMinutes" type="number" min={1} max={10080} defaultValue={defaultInterval} />
        </div>
        <button type="submit" className="button">
          Add feed
        </button>
      </form>
      {found?.length ? (
        <div className="discovered" data-testid="discovered-feeds">
          <p className="small">That page is not a feed, but it links to {found.length === 1 ? 'this feed' : 'these feeds'}:</p>
          <ul>
            {found.map((f) => (
              <li key={f}>
                <form method="post" action="/admin/feeds">
                  <input type="hidden" name="csrf" value={csrf} />
                  <input type="hidden" name="op" value="add" />
                  <input type="hidden" name="url" value={f} />
                  <input type="hidden" name="intervalMinutes" value={defaultInterval} />
                  <span className="feed-url">{f}</span>
                  <button type="submit" className="button button--small" aria-label={`Add the feed ${f}`}>
                    Add this feed
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
