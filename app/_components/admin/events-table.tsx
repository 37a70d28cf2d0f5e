import type { CrawlEventRow } from '../../_lib/dashboard';
import { formatBytes } from '../../../lib/web/time-format';
import { TimeAgo } from '../time-ago';

export function EventsTable({ events, now }: { events: CrawlEventRow[]; now: Date }) {
  if (!events.length) return <p className="muted">No crawl activity yet.</p>;
  return (
    <div className="table-wrap">
      <table className="data events" data-testid="events-table">
        <caption className="visually-hidden">Most recent fetches, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Feed</th>
            <th scope="col">Fetch</th>
            <th scope="col">Outcome</th>
            <th scope="col" className="num">
              Time
            </th>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.id}>
              <td data-label="When">
                <TimeAgo iso={e.at} now={now} withAbsolute={false} />
              </td>
              <td data-label="Feed">{e.feedTitle ?? <span className="muted">removed feed</span>}</td>
              <td data-label="Fetch">
                <span className="muted">{e.kind}</span>
                <span className="feed-url" title={e.url}>
                  {e.url.length > 70 ? `${e.url.slice(0, 70)}…` : e.url}
                </span>
              </td>
              <td data-label="Outcome">
                <span className={`badge badge--${e.outcome}`}>{e.outcome.replace('_', ' ')}</span>
                {e.httpStatus ? <span className="feed-url">HTTP {e.httpStatus}</span> : null}
              </td>
              <td className="num" data-label="Time">
                {e.durationMs.toLocaleString('en')} ms
              </td>
              <td className="num" data-label="Size">
                {e.bytes ? formatBytes(e.bytes) : '—'}
              </td>
              <td className="event-error" data-label="Error">
                {e.error ? (
                  <details className="problem">
                    <summary>
                      <span className="problem__short">{e.error}</span>
                    </summary>
                    <p className="problem__full">{e.error}</p>
                  </details>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
