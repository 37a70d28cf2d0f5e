import type { FeedHealth } from '../../../crawler';
import { formatAbsolute, formatDuration } from '../../../lib/web/time-format';
import { safeHref } from '../../_lib/links';
import { nextCheckView, type WorkerView } from '../../_lib/next-check';
import { TimeAgo } from '../time-ago';
import { FeedActions } from './feed-actions';

const ROW_CLASS: Record<FeedHealth['state'], string> = {
  broken: 'is-broken',
  failing: 'is-failing',
  degraded: 'is-degraded',
  new: '',
  ok: '',
  paused: 'is-paused',
};

/** The problem in one line, the full text one click away. */
function Problem({ f, now }: { f: FeedHealth; now: Date }) {
  if (!f.stateReason || f.state === 'ok' || f.state === 'new' || f.state === 'paused') return null;
  const since = f.failingSince && (f.state === 'failing' || f.state === 'broken') ? f.failingSince : null;
  return (
    <>
      {since ? (
        <span className="failing-for" data-testid="failing-for" title={`since ${formatAbsolute(new Date(since))}`}>
          failing for {formatDuration((now.getTime() - Date.parse(since)) / 1000)}
        </span>
      ) : null}
      <details className="problem" data-testid="feed-problem">
        <summary>
          <span className="problem__short">{f.stateReason}</span>
        </summary>
        <p className="problem__full">{f.stateReason}</p>
        {f.lastErrorCode && f.state !== 'degraded' ? <p className="problem__code">{f.lastErrorCode}</p> : null}
      </details>
    </>
  );
}

/** What had to be forgiven to read the last document: shown whatever the state (an "ok" feed may have it). */
function Warning({ f }: { f: FeedHealth }) {
  if (!f.parseWarning) return null;
  return (
    <details className="problem problem--warning" data-testid="feed-warning">
      <summary>
        <span className="problem__short">Warning: {f.parseWarning}</span>
      </summary>
      <p className="problem__full">{f.parseWarning}</p>
    </details>
  );
}

/** The feeds with their health, problems first (listFeedHealth's order) and highlighted. At phone widths each row is a card. */
export function FeedsTable({ feeds, csrf, now, worker }: { feeds: FeedHealth[]; csrf: string; now: Date; worker: WorkerView }) {
  if (!feeds.length) return <p className="muted">No feeds here.</p>;
  return (
    <div className="table-wrap feeds-wrap">
      <table className="data feeds" data-testid="feeds-table">
        <caption className="visually-hidden">Feeds and their crawl health, feeds with problems first</caption>
        <thead>
          <tr>
            <th scope="col">Feed</th>
            <th scope="col">Health</th>
            <th scope="col">Checks</th>
            <th scope="col" className="num">
              Items → articles
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {feeds.map((f) => {
            const href = safeHref(f.url);
            const next = nextCheckView(f, now, worker);
            return (
              <tr
                key={f.id}
                id={`feed-${f.id}`}
                className={ROW_CLASS[f.state]}
                data-testid="feed-row"
                data-feed-url={f.url}
                data-status={f.status}
                data-state={f.state}
                data-warning={f.parseWarning ? 'yes' : undefined}
              >
                <td className="feed-cell" data-label="Feed">
                  <span className="feed-title">{f.title ?? 'Untitled feed'}</span>
                  {f.category ? <span className="feed-category">{f.category}</span> : null}
                  {href ? (
                    <a className="feed-url" href={href} rel="noopener noreferrer nofollow" target="_blank">
                      {f.url}
                    </a>
                  ) : (
                    <span className="feed-url">{f.url}</span>
                  )}
                </td>
                <td className="health-cell" data-label="Health">
                  <span className={`badge badge--${f.state}`} data-testid="feed-status">
                    {f.state}
                  </span>
                  {f.lastHttpStatus && f.lastHttpStatus !== 200 ? <span className="muted small"> HTTP {f.lastHttpStatus}</span> : null}
                  <Problem f={f} now={now} />
                  <Warning f={f} />
                </td>
                <td className="checks-cell" data-label="Checks">
                  <span className="check-line">
                    last:{' '}
                    {f.lastCheckedAt ? (
                      <TimeAgo iso={f.lastCheckedAt} now={now} withAbsolute={false} />
                    ) : (
                      <span className="muted">never</span>
                    )}
                  </span>
                  <span className="check-line" data-testid="next-check">
                    next: {next.text}
                  </span>
                  {next.why ? <span className="check-why">{next.why}</span> : null}
                  <span className="check-why">every {f.intervalMinutes} min</span>
                </td>
                <td className="num counts-cell" data-label="Items → articles" data-testid="feed-articles">
                  <span title="items the feed listed (new at the last check)">
                    {f.itemsSeen.toLocaleString('en')} items{f.pendingItems ? `, ${f.pendingItems.toLocaleString('en')} pending` : ''}
                  </span>
                  <span>{f.articles.toLocaleString('en')} articles</span>
                  {f.articlesFailed ? <span className="count-bad">{f.articlesFailed.toLocaleString('en')} failed</span> : null}
                  <span className="muted">{f.snippetsMade.toLocaleString('en')} snippets</span>
                </td>
                <td className="actions-cell">
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
