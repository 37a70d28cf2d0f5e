import { formatDay } from '../../lib/web/time-format';
import type { FactCheck } from '../_lib/fact-checks';
import { safeHref } from '../_lib/links';

/** "Fact-checkers have rated this": published fact-checks matching the claim, shown beside the automatic verdict, each with its link. */
export function FactChecksPanel({ checks }: { checks: FactCheck[] }) {
  if (!checks.length) return null;
  return (
    <section className="card fact-checks" aria-labelledby="fact-checks-h" data-testid="fact-checks">
      <h2 id="fact-checks-h">Fact-checkers have rated this</h2>
      <ul>
        {checks.map((c) => {
          const href = safeHref(c.reviewUrl);
          const scale =
            c.ratingValue !== null && c.bestRating !== null
              ? ` (${c.ratingValue} on a scale of ${c.worstRating ?? 1} to ${c.bestRating})`
              : '';
          return (
            <li key={`${c.reviewUrl}\n${c.claim}`} data-testid="fact-check">
              <span className="fact-check__rating">{c.rating ?? 'rated'}</span>
              <span className="muted small">{scale}</span>
              <p className="fact-check__claim">“{c.claim}”</p>
              <p className="fact-check__by">
                {c.reviewer ?? 'A fact-checker'}
                {c.reviewedAt ? `, ${formatDay(new Date(c.reviewedAt))}` : ''}
                {c.claimant ? ` · claim by ${c.claimant}` : ''} ·{' '}
                {href ? (
                  <a href={href} rel="noopener noreferrer nofollow" target="_blank">
                    Read the fact-check
                  </a>
                ) : null}
              </p>
            </li>
          );
        })}
      </ul>
      <p className="small muted" style={{ margin: '8px 0 0' }}>
        Published ratings found on the pages this service crawled or imported, matched to your claim by its words; the automatic verdict is
        separate.
      </p>
    </section>
  );
}
