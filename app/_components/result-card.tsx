import type { Duplicate, SearchResult } from '../../ranking/types';
import { safeHref } from '../_lib/links';
import { Highlighted } from './highlighted';
import { TimeAgo } from './time-ago';
import { WhyThisResult } from './why-this-result';

/** The same story under other URLs, collapsed into this result. */
function AlsoPublished({ duplicates }: { duplicates: Duplicate[] }) {
  return (
    <p className="result__also small" data-testid="also-published">
      <span className="muted">Same story also in: </span>
      {duplicates.map((d, i) => {
        const href = safeHref(d.url);
        return (
          <span key={d.snippetId}>
            {i ? '; ' : ''}
            {href ? (
              <a href={href} target="_blank" rel="noopener noreferrer nofollow ugc" title={d.title}>
                {d.source}
              </a>
            ) : (
              d.source
            )}
            {d.title ? <span className="muted"> (“{d.title}”)</span> : null}
          </span>
        );
      })}
    </p>
  );
}

export function ResultCard({
  result,
  rank,
  halfLifeDays,
  asOf,
}: {
  result: SearchResult;
  rank: number;
  halfLifeDays: number | null;
  asOf: string;
}) {
  const href = safeHref(result.url);
  const titleId = `r${result.snippetId}-title`;
  return (
    <article className="result" aria-labelledby={titleId} data-testid="result" data-snippet-id={result.snippetId}>
      <h3 className="result__title" id={titleId}>
        {href ? (
          <a href={href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {result.title || 'Untitled article'}
          </a>
        ) : (
          result.title || 'Untitled article'
        )}
      </h3>
      <p className="result__meta">
        <span className="visually-hidden">Result {rank}. </span>
        <span className="result__source">{result.source}</span>
        <TimeAgo iso={result.publishedAt} />
      </p>
      <p className="result__text" data-testid="snippet">
        <Highlighted text={result.text} spans={result.evidence} />
      </p>
      {result.duplicates?.length ? <AlsoPublished duplicates={result.duplicates} /> : null}
      <WhyThisResult scores={result.scores} publishedAt={result.publishedAt} halfLifeDays={halfLifeDays} asOf={asOf} />
    </article>
  );
}
