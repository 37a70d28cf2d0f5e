'use client';
/**
 * The /check page's tool: the form, then the report as it arrives. The check's events are read from
 * POST /api/check as NDJSON, one line at a time, so the article's text appears first with every
 * claim marked "checking", and each claim takes its verdict as soon as it is checked. The address
 * bar always holds the link that runs the same check again (pasted text in its fragment, which
 * never reaches a server); opening such a link runs the check.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { buildReport, foldEvents, rerunHref, type ReportRequest } from '../../../check/report/report';
import { SKIP_REASON_TEXT } from '../../../check/report/labels';
import type { CheckEvent, ClaimResult } from '../../../check/schema';
import { ArticleView } from './article-view';
import { CheckForm, type CheckInput } from './check-form';
import { CheckSummaryBar } from './check-summary';
import { ClaimCard } from './claim-card';
import { readNdjson } from './ndjson';

type Status = 'idle' | 'running' | 'done' | 'error';

function bodyOf(input: CheckInput) {
  const options = { includeLater: input.includeLater, ...(input.asOf ? { asOf: input.asOf } : {}) };
  if (input.mode === 'url') return { url: input.url.trim(), ...options };
  return {
    text: input.text,
    ...(input.title.trim() ? { title: input.title.trim() } : {}),
    ...(input.publishedAt ? { publishedAt: input.publishedAt } : {}),
    ...options,
  };
}

async function errorMessage(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: string } };
    return body.error?.message ?? `the check failed (HTTP ${res.status})`;
  } catch {
    return `the check failed (HTTP ${res.status})`;
  }
}

/** The text and title a rerun link carries in its fragment (#text=…&title=…). */
function fromFragment(): Partial<CheckInput> | null {
  const hash = window.location.hash.slice(1);
  if (!hash) return null;
  const p = new URLSearchParams(hash);
  const text = p.get('text');
  return text ? { mode: 'text', text, title: p.get('title') ?? '' } : null;
}

export function CheckTool({ initial }: { initial: CheckInput }) {
  const [input, setInput] = useState(initial);
  const [status, setStatus] = useState<Status>('idle');
  const [events, setEvents] = useState<CheckEvent[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [request, setRequest] = useState<ReportRequest | null>(null);
  const abort = useRef<AbortController | null>(null);

  async function run(next: CheckInput) {
    abort.current?.abort();
    const controller = (abort.current = new AbortController());
    const req: ReportRequest = {
      url: next.mode === 'url' ? next.url.trim() : null,
      includeLater: next.includeLater,
      asOf: next.asOf || null,
    };
    setInput(next);
    setRequest(req);
    setEvents([]);
    setError(null);
    setStatus('running');
    window.history.replaceState(null, '', rerunHref(req, next.mode === 'text' ? next.text : undefined, next.title || null));
    try {
      const res = await fetch('/api/check', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
        body: JSON.stringify(bodyOf(next)),
        signal: controller.signal,
      });
      if (!res.ok) throw new Error(await errorMessage(res));
      for await (const e of readNdjson(res) as AsyncGenerator<CheckEvent>) {
        if (e.type === 'error') throw new Error(e.error.message);
        setEvents((prev) => [...prev, e]);
      }
      setStatus('done');
    } catch (e) {
      if (controller.signal.aborted) return;
      setError((e as Error).message);
      setStatus('error');
    }
  }

  useEffect(() => {
    const fragment = fromFragment();
    if (fragment) void run({ ...initial, ...fragment });
    else if (initial.url) void run(initial);
    return () => abort.current?.abort();
    // Runs once, for a rerun link opened in the browser.
  }, []);

  const { start, claims, summary } = useMemo(() => foldEvents(events), [events]);
  const results = useMemo(() => new Map<number, ClaimResult>(claims.map((c) => [c.id, c])), [claims]);
  const report = useMemo(() => (status === 'done' && request ? buildReport(events, request, new Date()) : null), [status, events, request]);
  const count = (o: ClaimResult['outcome']) => claims.filter((c) => c.outcome === o).length;
  const rerun = request ? rerunHref(request, input.mode === 'text' ? input.text : undefined, input.title || null) : null;

  return (
    <div className="check-tool">
      <CheckForm
        key={`${input.mode}:${input.url}:${input.text.length}`}
        initial={input}
        busy={status === 'running'}
        onCheck={(i) => void run(i)}
      />
      {error ? (
        <p className="notice notice--error" role="alert" data-testid="check-error">
          {error}
        </p>
      ) : null}
      {status === 'running' && !start ? (
        <p className="notice notice--info" aria-live="polite" data-testid="check-reading">
          Reading the article and picking its claims…
        </p>
      ) : null}
      {start ? (
        <div className="check-report" data-testid="check-report">
          <header className="check-report__head">
            <h2>{start.article.title ?? 'Your text'}</h2>
            <p className="small muted">
              {[
                start.article.siteName,
                start.article.publishedAt ? `published ${start.article.publishedAt.slice(0, 10)}` : null,
                start.asOf ? `checked against the coverage up to ${start.asOf.slice(0, 10)}` : 'checked against all the coverage',
                start.excludedArticles.length ? 'its own stored copy left out' : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
            {start.warnings.map((w) => (
              <p key={w} className="notice notice--warn" data-testid="check-warning">
                {w}
              </p>
            ))}
          </header>
          <CheckSummaryBar
            total={start.claims.length}
            checked={{ supported: count('supported'), refuted: count('refuted'), notSettled: count('not_settled') }}
            summary={summary}
            report={report}
            rerun={rerun}
          />
          <div className="check-columns">
            <section aria-labelledby="check-text-h">
              <h2 id="check-text-h">The text, claim by claim</h2>
              <ArticleView sentences={start.sentences} results={results} />
              <LeftOut sentences={start.sentences} />
            </section>
            <section aria-labelledby="check-claims-h">
              <h2 id="check-claims-h">Claims ({start.claims.length})</h2>
              <ol className="check-claims">
                {start.claims.map((c) => (
                  <ClaimCard key={c.id} claim={c} result={results.get(c.id)} />
                ))}
              </ol>
            </section>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function LeftOut({ sentences }: { sentences: { index: number; text: string; skipped: string | null }[] }) {
  const left = sentences.filter((s) => s.skipped);
  if (!left.length) return null;
  return (
    <details className="check-left-out" data-testid="left-out">
      <summary>Not checked ({left.length})</summary>
      <ul>
        {left.map((s) => (
          <li key={s.index}>
            {s.text} <span className="muted small">— {SKIP_REASON_TEXT[s.skipped!] ?? s.skipped}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
