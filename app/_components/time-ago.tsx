import { formatAbsolute, formatDay, formatRelative } from '../../lib/web/time-format';

/** A date shown both ways: relative for scanning, absolute for the record (and in the tooltip). */
export function TimeAgo({ iso, now, withAbsolute = true }: { iso: string | null; now?: Date; withAbsolute?: boolean }) {
  if (!iso) return <span className="muted">date unknown</span>;
  const d = new Date(iso);
  if (!Number.isFinite(d.getTime())) return <span className="muted">date unknown</span>;
  return (
    <span className="nowrap">
      <time dateTime={d.toISOString()} title={formatAbsolute(d)}>
        {formatRelative(d, now)}
      </time>
      {withAbsolute ? <span className="muted"> · {formatDay(d)}</span> : null}
    </span>
  );
}
