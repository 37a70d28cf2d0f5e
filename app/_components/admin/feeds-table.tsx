import type { FeedHealth } from '../../../crawler';
import { safeHref } from '../../_lib/links';
import { TimeAgo } from '../time-ago';
import { FeedActions } from './feed-actions';

function statusOf(f: FeedHealth): { label: string; css: string; row: string } {
  if (f.status === 'broken') return { label: 'broken', css: 'broken', row: 'is-broken' };
  if (f.status === 'paused') return { label: 'paused', css: 'paused', row: '' };
  if (f.consecutiveFailures > 0) return { label: 'failing', css: 'failing', row: 'is-failing' };
  return { label: f.lastSuccessAt ? 'ok' : 'new', css: f.lastSuccessAt ? 'ok' : 'paused', row: '' };
}

/** The feeds with their health, broken ones first (listFeedHealth's order) and highlighted. */
export function FeedsTable({ feeds, csrf, now }: { feeds: FeedHealth[]; csrf: string; now: Date }) {
  if (!feeds.length) return <p className="muted">No feeds yet: add one above.</p>;
  return (
    <div className="table-wrap">
      <table className="data" data-testid="feeds-table">
        <caption className="visually-hidden">Feeds and their crawl health, broken feeds first</caption>
        <thead>
          <tr>
            <th scope="col">Feed</th>
            <th scope="col">Status</th>
            <th scope="col">Last check</th>
            <th scope="col">Next check</th>
            <th scope="col" className="num">Failures</th>
            <th scope="col">Last error</th>
            <th scope="col" className="num">Items (new)</th>
            <th scope="col" className="num">Articles</th>
            <th scope="col" className="num">Snippets</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {feeds.map((f) => {
            const s = statusOf(f);
            const href = safeHref(f.url);
            return (
              <tr key={f.id} className={s.row} data-testid="feed-row" data-feed-url={f.url} data-status={f.status}>
                <td className="feed-cell">
                  <span className="feed-title">{f.title ?? 'Untitled feed'}</span>
                  {href ? (
                    <a className="feed-url" href={href} rel="noopener noreferrer nofollow" target="_blank">
                      {f.url}
                    </a>
                  ) : (
                    <span className="feed-url">{f.url}</span>
                  )}
                  <span className="feed-url">every {f.intervalMinutes} min</span>
                </td>
                <td>
                  <span className={`badge badge--${s.css}`} data-testid="feed-status">
                    {s.label}
                  </span>
                  {f.lastHttpStatus ? <span className="feed-url">HTTP {f.lastHttpStatus}</span> : null}
                </td>
                <td>{f.lastCheckedAt ? <TimeAgo iso={f.lastCheckedAt} now={now} withAbsolute={false} /> : <span className="muted">never</span>}</td>
                <td>
                  {f.status === 'paused' ? (
                    <span className="muted">paused</span>
                  ) : Date.parse(f.nextCheckAt) <= now.getTime() ? (
                    'due now'
                  ) : (
                    <TimeAgo iso={f.nextCheckAt} now={now} withAbsolute={false} />
                  )}
                </td>
                <td className="num">{f.consecutiveFailures}</td>
                <td>
                  {f.lastError ? (
                    <span className="error-text" title={f.lastError}>
                      {f.lastError.length > 140 ? `${f.lastError.slice(0, 140)}…` : f.lastError}
                    </span>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td className="num">
                  {f.itemsSeen.toLocaleString('en')} ({f.itemsNew.toLocaleString('en')})
                </td>
                <td className="num" data-testid="feed-articles">
                  {f.articles.toLocaleString('en')}
                  {f.articlesFailed ? <span className="feed-url">{f.articlesFailed} failed</span> : null}
                </td>
                <td className="num">{f.snippetsMade.toLocaleString('en')}</td>
                <td>
                  <FeedActions feed={f} csrf={csrf} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
