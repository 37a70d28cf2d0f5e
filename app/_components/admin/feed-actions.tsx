import type { FeedHealth } from '../../../crawler';

function Op({
  op,
  id,
  csrf,
  label,
  className = 'button button--quiet button--small',
  testId,
}: {
  op: string;
  id: number;
  csrf: string;
  label: string;
  className?: string;
  testId?: string;
}) {
  return (
    <form method="post" action="/admin/feeds">
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="op" value={op} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={className} data-testid={testId}>
        {label}
      </button>
    </form>
  );
}

/** Edit title and interval (behind a click), pause / resume, check now, remove (behind a second click). Plain forms with the CSRF token. */
export function FeedActions({ feed, csrf }: { feed: FeedHealth; csrf: string }) {
  const name = feed.title ?? feed.url;
  return (
    <div className="actions" aria-label={`Actions for ${name}`} role="group">
      {feed.status === 'paused' ? (
        <Op op="resume" id={feed.id} csrf={csrf} label="Resume" testId={`resume-${feed.id}`} />
      ) : (
        <Op op="pause" id={feed.id} csrf={csrf} label="Pause" testId={`pause-${feed.id}`} />
      )}
      <Op op="refresh" id={feed.id} csrf={csrf} label="Check now" testId={`refresh-${feed.id}`} />
      <details className="edit-feed">
        <summary className="button button--quiet button--small" data-testid={`edit-${feed.id}`}>
          Edit
        </summary>
        <form method="post" action="/admin/feeds" aria-label={`Edit ${name}`}>
          <input type="hidden" name="csrf" value={csrf} />
          <input type="hidden" name="op" value="edit" />
          <input type="hidden" name="id" value={feed.id} />
          <label>
            Title
            <input name="title" type="text" maxLength={300} defaultValue={feed.title ?? ''} placeholder="the feed's own title" />
          </label>
          <label>
            Check every (min)
            <input name="intervalMinutes" type="number" min={1} max={10080} required defaultValue={feed.intervalMinutes} />
          </label>
          <button type="submit" className="button button--small">
            Save
          </button>
        </form>
      </details>
      <details className="remove-feed">
        <summary className="button button--danger button--small" data-testid={`remove-${feed.id}`}>
          Remove
        </summary>
        <Op
          op="remove"
          id={feed.id}
          csrf={csrf}
          label="Confirm removal"
          className="button button--danger button--small"
          testId={`confirm-remove-${feed.id}`}
        />
      </details>
    </div>
  );
}
