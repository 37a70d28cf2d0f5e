import type { SearchResult } from '../../ranking/types';
import { safeHref } from '../_lib/links';
import { Highlighted } from './highlighted';
import { TimeAgo } from './time-ago';
import { WhyThisResult } from './why-this-result';

export function ResultCard({ result, rank, halfLifeDays, asOf }: { result: SearchResult; rank: number; halfLifeDays: number | null; asOf: string }) {
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
      <WhyThisResult scores={result.scores} publishedAt={result.publishedAt} halfLifeDays={halfLifeDays} asOf={asOf} />
    </article>
  );
}
