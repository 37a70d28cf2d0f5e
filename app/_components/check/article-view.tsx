import type { ClaimResult, SentenceView } from '../../../check/schema';
import { SKIP_REASON_TEXT, VERDICT_TEXT } from '../../../check/report/labels';
import { VERDICT_CSS } from './verdict-tag';

function Sentence({ s, result }: { s: SentenceView; result: ClaimResult | undefined }) {
  if (s.claim === null)
    return (
      <span
        className="check-sentence check-sentence--skipped"
        title={s.skipped ? `Not checked: ${SKIP_REASON_TEXT[s.skipped]}` : undefined}
      >
        {s.text}{' '}
      </span>
    );
  const state = result ? VERDICT_CSS[result.label] : 'pending';
  return (
    <>
      <mark className={`check-sentence check-mark check-mark--${state}`} data-testid="claim-mark" data-claim={s.claim}>
        {s.text}
        <a className="check-ref" href={`#claim-${s.claim + 1}`}>
          <span aria-hidden="true">{s.claim + 1}</span>
          <span className="visually-hidden">
            {' '}
            (claim {s.claim + 1}: {result ? VERDICT_TEXT[result.label] : 'being checked'})
          </span>
        </a>
      </mark>{' '}
    </>
  );
}

/** The article's text, paragraph by paragraph, each claim marked by its verdict and linked to its card. */
export function ArticleView({ sentences, results }: { sentences: SentenceView[]; results: Map<number, ClaimResult> }) {
  const paragraphs = new Map<number, SentenceView[]>();
  for (const s of sentences) paragraphs.set(s.paragraph, [...(paragraphs.get(s.paragraph) ?? []), s]);
  return (
    <div className="check-article" data-testid="article-text">
      {[...paragraphs.entries()].map(([p, list]) => (
        <p key={p}>
          {list.map((s) => (
            <Sentence key={s.index} s={s} result={s.claim === null ? undefined : results.get(s.claim)} />
          ))}
        </p>
      ))}
    </div>
  );
}
