import type { StanceEvidence } from '../../../ranking/schema';
import { safeHref } from '../../_lib/links';
import { TimeAgo } from '../time-ago';

type Detail = NonNullable<StanceEvidence['details']>[number];

/** The claim's details this sentence contradicts (what decides a refutation), or confirms. */
function Details({ details }: { details: Detail[] }) {
  const differ = details.filter((d) => d.status === 'contradicted');
  const same = details.filter((d) => d.status === 'confirmed');
  if (!differ.length && !same.length) return null;
  return (
    <ul className="check-details" data-testid="evidence-details">
      {differ.map((d, i) => (
        <li key={`x${i}`} className="check-detail check-detail--differs">
          {d.kind}: {d.claim ? `“${d.claim}” in the claim` : 'the claim'}
          {d.evidence ? `, “${d.evidence}” here` : ''}
        </li>
      ))}
      {same.length ? (
        <li className="check-detail check-detail--same">
          same {same.length === 1 ? 'detail' : 'details'}: {same.map((d) => d.claim).join(', ')}
        </li>
      ) : null}
    </ul>
  );
}

/** The sentence that decides a verdict: what it says, why it decides (the detail), where and when it was published. */
export function EvidenceQuote({ e }: { e: StanceEvidence }) {
  const href = safeHref(e.url);
  return (
    <figure className="check-evidence" data-testid="deciding-evidence">
      <blockquote>“{e.sentence}”</blockquote>
      <figcaption>
        {e.reason ? (
          <span className="check-evidence__reason" data-testid="deciding-reason">
            {e.reason}
          </span>
        ) : null}
        {e.details?.length ? <Details details={e.details} /> : null}
        <span className="check-evidence__source">
          {href ? (
            <a href={href} target="_blank" rel="noopener noreferrer nofollow ugc">
              {e.source}: {e.title}
            </a>
          ) : (
            `${e.source}: ${e.title}`
          )}{' '}
          · <TimeAgo iso={e.publishedAt} withAbsolute={false} />
        </span>
      </figcaption>
    </figure>
  );
}
