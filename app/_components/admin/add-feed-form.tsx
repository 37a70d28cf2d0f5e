/** Add a feed: the server fetches it once and adds it only if it parses. */
export function AddFeedForm({ csrf, defaultInterval }: { csrf: string; defaultInterval: number }) {
  return (
    <form method="post" action="/admin/feeds" className="add-feed" aria-label="Add a feed">
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="op" value="add" />
      <div className="field field--url">
        <label htmlFor="feed-url">
          Add a feed (RSS, Atom or RDF URL)
        </label>
        <input id="feed-url" name="url" type="url" required placeholder="https://example.com/news/rss.xml" inputMode="url" />
      </div>
      <div className="field field--interval">
        <label htmlFor="feed-interval">Check every (min)</label>
        <input id="feed-interval" name="intervalMinutes" type="number" min={1} max={10080} defaultValue={defaultInterval} />
      </div>
      <button type="submit" className="button">
        Add feed
      </button>
    </form>
  );
}
