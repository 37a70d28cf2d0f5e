import type { ReactNode } from 'react';
import type { DetailCheck, SearchResponse, StanceEvidence, Verdict } from '../../ranking/types';
import { safeHref } from '../_lib/links';
import { TimeAgo } from './time-ago';

const LABELS: Record<Verdict['label'], { text: string; css: string; blurb: string }> = {
  SUPPORTED: { text: 'Supported', css: 'supported', blurb: 'The coverage found mostly supports this claim.' },
  REFUTED: { text: 'Refuted', css: 'refuted', blurb: 'The coverage found mostly contradicts this claim.' },
  MIXED: { text: 'Mixed evidence', css: 'mixed', blurb: 'The coverage found both supports and contradicts this claim.' },
  NOT_ENOUGH_EVIDENCE: {
    text: 'Not enough evidence',
    css: 'none',
    blurb:
      'The coverage found does not clearly support or contradict this claim, so no verdict is given: the evidence is grouped below for you to read.',
  },
};

const STANCES = [
  { key: 'supports', title: 'Supporting' },
  { key: 'refutes', title: 'Contradicting' },
  { key: 'neutral', title: 'Related, no stance' },
] as const;

const MARK: Record<DetailCheck['status'], string> = { confirmed: '✓', contradicted: '✗', unmentioned: '–' };
const STATUS_TEXT: Record<DetailCheck['status'], string> = {
  confirmed: 'stated',
  contradicted: 'stated differently',
  unmentioned: 'not mentioned',
};

/** What the sentence says of each of the claim's details: "Basra ✗ Baghdad", "Hassan ✓". */
function DetailChecks({ checks }: { checks: readonly DetailCheck[] }) {
  const shown = checks.filter((c) => c.claim || c.status === 'contradicted');
  if (!shown.length) return null;
  return (
    <ul className="detail-checks" aria-label="The claim's details in this sentence" data-testid="detail-checks">
      {shown.map((c, i) => (
        <li key={i} className={`detail-check detail-check--${c.status}`} title={`${c.kind}: ${STATUS_TEXT[c.status]}`}>
          <span aria-hidden="true">{MARK[c.status]}</span> {c.claim || c.kind}
          {c.status === 'contradicted' && c.evidence ? <span className="detail-check__other"> → {c.evidence}</span> : null}
          <span className="visually-hidden"> ({STATUS_TEXT[c.status]})</span>
        </li>
      ))}
    </ul>
  );
}

function EvidenceItem({ e }: { e: StanceEvidence }) {
  const href = safeHref(e.url);
  return (
    <li data-testid="stance-item">
      “{e.sentence}”
      {e.reason ? (
        <span className="stance-reason" data-testid="stance-reason">
          {e.reason}
        </span>
      ) : null}
      {e.details && e.stance !== 'neutral' ? <DetailChecks checks={e.details} /> : null}
      <span className="src">
        {href ? (
          <a href={href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {e.source}
          </a>
        ) : (
          e.source
        )}{' '}
        · <TimeAgo iso={e.publishedAt} withAbsolute={false} /> · {Math.round(e.confidence * 100)}%
      </span>
    </li>
  );
}

/**
 * Every judged sentence is listed under its stance, so the counts in the headings are the number of
 * items below them (the stage judges a handful of sentences per claim; nothing is hidden).
 */
function StanceColumn({ s, items }: { s: (typeof STANCES)[number]; items: readonly StanceEvidence[] }) {
  return (
    <div className={`stance stance--${s.key}`} data-testid={`stance-${s.key}`}>
      <h3>
        <span className={`dot dot--${s.key}`} aria-hidden="true" />
        {s.title}
        <span>
          (<span data-testid="stance-count">{items.length}</span>)
        </span>
      </h3>
      {items.length ? (
        <ul>
          {items.map((e, i) => (
            <EvidenceItem key={`${e.snippetId}-${i}`} e={e} />
          ))}
        </ul>
      ) : (
        <p className="small muted">None found.</p>
      )}
    </div>
  );
}

/** The automatic verdict for a claim, with the evidence grouped by stance and a plain caveat. */
/** The panel when there is no verdict to give: the reason, and the evidence below left to the reader. */
function NoVerdict({ label, children }: { label: string; children: ReactNode }) {
  return (
    <section className="verdict" aria-labelledby="verdict-h" data-testid="verdict-unavailable">
      <p className="verdict__eyebrow" id="verdict-h">
        Automatic verdict
      </p>
      <p className="verdict__label">{label}</p>
      <p className="caveat">{children}</p>
    </section>
  );
}

export function VerdictPanel({ response }: { response: Pick<SearchResponse, 'verdict' | 'verdictStatus' | 'kind' | 'models'> }) {
  if (response.verdictStatus === 'question') {
    return (
      <p className="notice notice--info" data-testid="verdict-question">
        This reads as a question, so there is no verdict: the results below are the best evidence found.
      </p>
    );
  }
  if (response.verdictStatus === 'keywords') {
    return (
      <p className="notice notice--info" data-testid="verdict-keywords">
        These read as keywords, not a claim, so there is no verdict: the results below are the best evidence found. To check a claim, write
        it as a statement (for example “The Xbox price was cut in Europe”).
      </p>
    );
  }
  if (response.verdictStatus === 'unavailable') {
    // The verdict model is configured but cannot serve (missing, truncated): the search went on without it.
    return (
      <NoVerdict label="Verdicts are unavailable right now">
        The verdict model cannot be used{response.models.unavailable?.nli ? ` (${response.models.unavailable.nli})` : ''}. The results below
        show the evidence found; read them to judge the claim. (Administrators: /api/health says what is wrong.)
      </NoVerdict>
    );
  }
  if (response.verdictStatus === 'no_model' || (response.verdictStatus === 'ok' && !response.verdict)) {
    return (
      <NoVerdict label="No verdict model is configured">
        The results below show the evidence found; read them to judge the claim. (Administrators: set QUIN_NLI_MODEL.)
      </NoVerdict>
    );
  }
  if (response.verdictStatus !== 'ok' || !response.verdict) return null;
  const v = response.verdict;
  const info = LABELS[v.label];
  const pct = Math.round(v.confidence * 100);
  return (
    <section className={`verdict verdict--${info.css}`} aria-labelledby="verdict-h" data-testid="verdict">
      <p className="verdict__eyebrow">Automatic verdict on this claim</p>
      <h2 className="verdict__label" id="verdict-h">
        <span data-testid="verdict-label">{info.text}</span>
        <span className="verdict__confidence">{pct}% confidence</span>
      </h2>
      <div className="confidence-track" role="meter" aria-label="Confidence" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <div className="confidence-fill" style={{ width: `${pct}%` }} />
      </div>
      <p className="small">{info.blurb}</p>
      {v.reason ? (
        <p className="small muted" data-testid="verdict-reason">
          Why: {v.reason}.
        </p>
      ) : null}
      {v.details?.length ? (
        <p className="small" data-testid="verdict-details">
          Details checked: {v.details.map((d) => d.text).join(' · ')}
        </p>
      ) : null}
      <div className="stances">
        {STANCES.map((s) => (
          <StanceColumn key={s.key} s={s} items={v.evidence[s.key]} />
        ))}
      </div>
      <p className="caveat">
        This verdict is computed automatically from the coverage found by comparing each sentence with the claim ({v.model}), weighted by
        relevance and recency. It can be wrong or out of date: read the sources before relying on it.
      </p>
    </section>
  );
}
