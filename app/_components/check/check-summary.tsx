'use client';
import type { CheckReport, CheckSummary } from '../../../check/schema';
import { reportCsv } from '../../../check/report/csv';

function download(name: string, type: string, body: string) {
  const url = URL.createObjectURL(new Blob([body], { type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

interface Props {
  total: number;
  checked: { supported: number; refuted: number; notSettled: number };
  summary: CheckSummary | null;
  report: CheckReport | null;
  rerun: string | null;
}

/** The counts as claims are checked (a live region: a screen reader hears the progress), then the exports and the rerun link. */
export function CheckSummaryBar({ total, checked, summary, report, rerun }: Props) {
  const done = checked.supported + checked.refuted + checked.notSettled;
  return (
    <section className="check-summary card" aria-labelledby="check-summary-h" data-testid="check-summary">
      <h2 id="check-summary-h">Summary</h2>
      <p aria-live="polite" data-testid="check-progress">
        {summary
          ? `Checked ${total} claims in ${summary.seconds} s${summary.firstVerdictSeconds === null ? '' : ` (the first after ${summary.firstVerdictSeconds} s)`}.`
          : total
            ? `Checked ${done} of ${total} claims…`
            : 'Reading the article…'}
      </p>
      {total && !summary ? <progress max={total} value={done} aria-label="Claims checked" /> : null}
      <ul className="check-counts">
        <li className="check-count check-count--supported">
          <strong data-testid="count-supported">{checked.supported}</strong> supported
        </li>
        <li className="check-count check-count--refuted">
          <strong data-testid="count-refuted">{checked.refuted}</strong> refuted
        </li>
        <li className="check-count check-count--unsettled">
          <strong data-testid="count-unsettled">{checked.notSettled}</strong> not settled
        </li>
      </ul>
      {report ? (
        <div className="check-exports">
          <button
            type="button"
            className="button button--quiet button--small"
            onClick={() => download('quin-check.json', 'application/json', JSON.stringify(report, null, 2))}
          >
            Export JSON
          </button>
          <button
            type="button"
            className="button button--quiet button--small"
            onClick={() => download('quin-check.csv', 'text/csv', reportCsv(report))}
          >
            Export CSV
          </button>
          {rerun ? (
            <a className="button button--quiet button--small" href={rerun} data-testid="rerun-link">
              Link to this check
            </a>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
