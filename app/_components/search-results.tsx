import Link from 'next/link';
import { coverageSeries } from '../../lib/web/chart';
import type { SearchQuery } from '../api/search/schema';
import type { SearchPageState } from '../_lib/search-page';
import { searchHref } from '../_lib/search-url';
import { BarChart } from './bar-chart';
import { Pagination } from './pagination';
import { ResultCard } from './result-card';
import { VerdictPanel } from './verdict-panel';

function activeFilters(q: SearchQuery): { label: string; href: string }[] {
  const out: { label: string; href: string }[] = [];
  const without = (change: Partial<Record<keyof SearchQuery, undefined>>) => searchHref(q, { ...change, page: undefined });
  if (q.halfLifeDays !== undefined)
    out.push({
      label: q.halfLifeDays === 'off' ? 'Recency off' : `Half-life ${q.halfLifeDays} d`,
      href: without({ halfLifeDays: undefined }),
    });
  if (q.maxAgeDays !== undefined) out.push({ label: `Past ${q.maxAgeDays} days`, href: without({ maxAgeDays: undefined }) });
  if (q.from) out.push({ label: `From ${q.from.slice(0, 10)}`, href: without({ from: undefined }) });
  if (q.to) out.push({ label: `To ${q.to.slice(0, 10)}`, href: without({ to: undefined }) });
  for (const s of q.sources ?? [])
    out.push({ label: s, href: searchHref(q, { sources: (q.sources ?? []).filter((x) => x !== s), page: undefined }) });
  if (q.sort === 'newest') out.push({ label: 'Newest first', href: without({ sort: undefined }) });
  if (q.asOf) out.push({ label: `As of ${q.asOf.slice(0, 10)}`, href: without({ asOf: undefined }) });
  return out;
}

export function SearchResults({ state, query }: { state: SearchPageState; query: SearchQuery | null }) {
  if (state.kind === 'problem' || state.kind === 'unavailable') {
    return (
      <>
        <h2 id="results-h" className="visually-hidden">
          Results
        </h2>
        <div className={`notice ${state.kind === 'problem' ? 'notice--error' : 'notice--warn'}`} role="alert" data-testid="search-problem">
          {state.kind === 'problem' ? <strong>{state.title}. </strong> : null}
          {state.message}
        </div>
      </>
    );
  }
  const r = state.response;
  const q = query!;
  const filters = activeFilters(q);
  const coverage = coverageSeries(r.coverage ?? []);
  const undated = r.coverageUndated ?? 0;
  const seconds = ((r.timingsMs.total ?? Object.values(r.timingsMs).reduce((a, b) => a + b, 0)) / 1000).toFixed(2);
  return (
    <>
      <div className="results-head">
        <h2 id="results-h" data-testid="results-count">
          {r.total ? `${r.total.toLocaleString('en')} matching passages` : 'No matching passages'}
        </h2>
        <span>
          read as{' '}
          {r.kind === 'keywords' ? (
            <strong>keywords</strong>
          ) : (
            <>
              a <strong>{r.kind}</strong>
            </>
          )}{' '}
          · {seconds} s
        </span>
        {filters.length ? (
          <span className="chips" aria-label="Active filters">
            {filters.map((f) => (
              <Link key={f.label} className="chip" href={f.href} aria-label={`Remove filter: ${f.label}`}>
                {f.label} <span aria-hidden="true">×</span>
              </Link>
            ))}
          </span>
        ) : null}
      </div>
      {r.warnings?.length ? (
        <div className="notice notice--warn" data-testid="search-warnings">
          {r.warnings.map((w) => (
            <div key={w}>{`${w.charAt(0).toUpperCase()}${w.slice(1)}.`}</div>
          ))}
        </div>
      ) : null}
      {r.total > 0 && (r.kind === 'claim' || r.verdictStatus === 'question' || r.verdictStatus === 'keywords') ? (
        <VerdictPanel response={r} />
      ) : null}
      {r.total > 0 && (coverage.data.length > 0 || undated > 0) ? (
        <section className="card coverage" aria-labelledby="coverage-h">
          <h2 id="coverage-h">Coverage over time</h2>
          {coverage.data.length > 0 ? (
            <>
              <p className="small muted" style={{ margin: '0 0 6px' }}>
                Matching articles per {coverage.unit}
              </p>
              <BarChart data={coverage.data} label={`Matching articles per ${coverage.unit}`} unit="articles" testId="coverage-chart" />
            </>
          ) : null}
          {undated > 0 ? (
            <p className="small muted" data-testid="coverage-undated" style={{ margin: '6px 0 0' }}>
              {coverage.data.length > 0
                ? `Not on the chart: ${undated.toLocaleString('en')} matching ${undated === 1 ? 'article has' : 'articles have'} no publication date.`
                : `The ${undated.toLocaleString('en')} matching ${undated === 1 ? 'article has' : 'articles have'} no publication date, so there is nothing to chart.`}
            </p>
          ) : null}
        </section>
      ) : null}
      {r.results.length ? (
        <ol className="results" aria-label="Search results" start={(r.page - 1) * r.k + 1}>
          {r.results.map((res, i) => (
            <li key={res.snippetId}>
              <ResultCard result={res} rank={(r.page - 1) * r.k + i + 1} halfLifeDays={r.halfLifeDays} asOf={r.asOf} />
            </li>
          ))}
        </ol>
      ) : (
        <div className="card empty" data-testid="empty">
          <h2>Nothing found for “{r.query}”</h2>
          <p className="muted">Some things to try:</p>
          <ul>
            {filters.length ? (
              <li>
                <Link href={searchHref({ q: q.q })}>remove the filters</Link> ({filters.map((f) => f.label).join(', ')})
              </li>
            ) : null}
            <li>use fewer or more common words, or name the people and places involved</li>
            <li>check the spelling; the archive covers the sources listed on the left</li>
          </ul>
        </div>
      )}
      <Pagination query={q} total={r.total} />
    </>
  );
}
