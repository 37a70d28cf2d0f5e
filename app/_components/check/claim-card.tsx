import type { ClaimResult, ClaimView, PartResult } from '../../../check/schema';
import { safeHref } from '../../_lib/links';
import { TimeAgo } from '../time-ago';
import { EvidenceQuote } from './evidence-quote';
import { VerdictTag } from './verdict-tag';

function Sources({ part }: { part: PartResult }) {
  if (!part.sources.length) return null;
  return (
    <details className="check-sources">
      <summary>Coverage found ({part.sources.length})</summary>
      <ul>
        {part.sources.map((s, i) => {
          const href = safeHref(s.url);
          return (
            <li key={`${s.url}-${i}`}>
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer nofollow ugc">
                  {s.title}
                </a>
              ) : (
                s.title
              )}{' '}
              <span className="muted small">
                {s.source} · <TimeAgo iso={s.publishedAt} withAbsolute={false} />
              </span>
              {s.sentence ? <p className="small">“{s.sentence}”</p> : null}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

function PartBody({ part }: { part: PartResult }) {
  return (
    <>
      {part.decidedBy ? <EvidenceQuote e={part.decidedBy} /> : part.reason ? <p className="small muted">{part.reason}</p> : null}
      <Sources part={part} />
    </>
  );
}

/** One claim: its verdict, the sentence and how it was read, each part's verdict and the sentence that decides it. */
export function ClaimCard({ claim, result }: { claim: ClaimView; result: ClaimResult | undefined }) {
  const compound = claim.parts.length > 1;
  return (
    <li id={`claim-${claim.id + 1}`} className="check-claim" data-testid="claim-card" data-claim={claim.id} tabIndex={-1}>
      <div className="check-claim__head">
        <span className="check-claim__num" aria-hidden="true">
          {claim.id + 1}
        </span>
        <VerdictTag label={result?.label ?? null} />
        <span className="visually-hidden">Claim {claim.id + 1}</span>
      </div>
      <p className="check-claim__text">{claim.text}</p>
      {claim.standalone !== claim.text ? <p className="small muted">Read as: {claim.standalone}</p> : null}
      {compound ? (
        <>
          <p className="small muted">
            A compound claim, checked in {claim.parts.length} parts (any part refuted: refuted; all supported: supported).
          </p>
          <ol className="check-parts" data-testid="claim-parts">
            {claim.parts.map((text, i) => {
              const part = result?.results[i];
              return (
                <li key={i} data-testid="claim-part">
                  <p>
                    <VerdictTag label={part?.label ?? null} /> {text}
                  </p>
                  {part ? <PartBody part={part} /> : null}
                </li>
              );
            })}
          </ol>
        </>
      ) : result?.results[0] ? (
        <PartBody part={result.results[0]} />
      ) : null}
    </li>
  );
}
