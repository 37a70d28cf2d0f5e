import type { Metadata } from 'next';
import { Suspense } from 'react';
import { getConfig } from '../../lib/config';
import { AddFeedForm } from '../_components/admin/add-feed-form';
import { DashboardSkeleton } from '../_components/admin/dashboard-skeleton';
import { EventsTable } from '../_components/admin/events-table';
import { FeedsTable } from '../_components/admin/feeds-table';
import { IndexStatus } from '../_components/admin/index-status';
import { SignOut } from '../_components/admin/sign-out';
import { FeedTools } from '../_components/admin/feed-tools';
import { SeedNotice } from '../_components/admin/seed-notice';
import { BarChart } from '../_components/bar-chart';
import { hasProblem } from '../../crawler';
import './admin.css';
import { requireAdminPage } from '../_lib/admin-page';
import { dashboardData } from '../_lib/dashboard';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Crawl health', robots: { index: false } };

const sum = <K extends 'articles' | 'imported' | 'snippets' | 'feedChecks' | 'feedErrors'>(rows: Record<K, number>[], key: K) =>
  rows.reduce((a, r) => a + r[key], 0);

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function Kpi({ label, value, sub, bad, testId }: { label: string; value: string; sub?: string; bad?: boolean; testId?: string }) {
  return (
    <div className={`kpi${bad ? ' kpi--bad' : ''}`} data-testid={testId}>
      <div className="kpi__label">{label}</div>
      <div className="kpi__value">{value}</div>
      {sub ? <div className="kpi__sub">{sub}</div> : null}
    </div>
  );
}

export default async function Dashboard({ searchParams }: Props) {
  const params = await searchParams;
  // Checked before anything streams, so that an anonymous request gets a real 401 status.
  const { session, csrf, flash } = await requireAdminPage(params.flash);
  return (
    <>
      <div className="admin-head">
        <h1 className="page-title">Crawl health</h1>
        <span className="muted small">signed in as {session.user}</span>
        <SignOut csrf={csrf} />
      </div>
      {flash ? (
        <p
          className={`notice notice--${flash.kind === 'ok' ? 'ok' : 'error'}`}
          role={flash.kind === 'ok' ? 'status' : 'alert'}
          data-testid="flash"
        >
          {flash.text}
          {flash.link ? (
            <>
              {' '}
              <a href={flash.link.href} data-testid="flash-link">
                {flash.link.text}
              </a>
            </>
          ) : null}
        </p>
      ) : null}
      <Suspense fallback={<DashboardSkeleton />}>
        <DashboardBody
          csrf={csrf}
          problemsOnly={params.problems === '1'}
          addUrl={flash?.kind === 'error' ? flash.url : undefined}
          found={flash?.found}
        />
      </Suspense>
    </>
  );
}

async function DashboardBody({
  csrf,
  problemsOnly,
  addUrl,
  found,
}: {
  csrf: string;
  problemsOnly: boolean;
  addUrl?: string;
  found?: string[];
}) {
  const d = await dashboardData();
  const now = new Date(d.now);
  const feeds = d.stats.feedHealth;
  const broken = d.stats.feedsByStatus.broken ?? 0;
  const failing = feeds.filter((f) => f.state === 'failing').length;
  const degraded = feeds.filter((f) => f.state === 'degraded').length;
  const problems = feeds.filter((f) => hasProblem(f.state));
  const today = d.ingestion.at(-1);
  const worker = d.workers[0];
  const workerView = { up: d.workers.some((w) => w.up), pollSeconds: d.workerPollSeconds };
  return (
    <>
      {broken ? (
        <p className="notice notice--error" role="alert">
          {broken === 1 ? '1 feed is broken' : `${broken} feeds are broken`}: they keep failing and are retried at the longest interval. See
          the highlighted rows below.
        </p>
      ) : null}
      {degraded ? (
        <p className="notice notice--warn" data-testid="degraded-notice">
          {degraded === 1
            ? '1 feed is read but its items do not become articles'
            : `${degraded} feeds are read but their items do not become articles`}
          : see the reason in their row.
        </p>
      ) : null}
      <section className="kpis" aria-label="Summary">
        <Kpi
          label="Feeds"
          value={d.stats.feeds.toLocaleString('en')}
          sub={`${d.stats.feedsByStatus.active ?? 0} active · ${d.stats.feedsByStatus.paused ?? 0} paused`}
        />
        <Kpi
          label="Broken / failing"
          value={`${broken} / ${failing}`}
          bad={broken > 0}
          sub={`feeds · ${degraded} degraded`}
          testId="kpi-broken"
        />
        <Kpi
          label="Articles"
          value={d.stats.articles.toLocaleString('en')}
          sub={`${(today?.articles ?? 0).toLocaleString('en')} fetched today${today?.imported ? ` · ${today.imported.toLocaleString('en')} imported` : ''}`}
          testId="kpi-articles"
        />
        <Kpi
          label="Snippets"
          value={d.stats.snippets.toLocaleString('en')}
          sub={`${d.index.pending.toLocaleString('en')} waiting for the index`}
        />
        <Kpi
          label="Worker"
          value={worker?.up ? 'Up' : 'Down'}
          bad={!worker?.up}
          sub={worker ? worker.state : 'never started'}
          testId="kpi-worker"
        />
      </section>

      <section className="card" aria-labelledby="feeds-h" style={{ marginBottom: 16 }}>
        <h2 id="feeds-h">Feeds</h2>
        {feeds.length === 0 ? <SeedNotice state={d.seed.state} count={d.seed.count} csrf={csrf} /> : null}
        <AddFeedForm csrf={csrf} defaultInterval={getConfig().feedIntervalMinutes} url={addUrl} found={found} />
        <FeedTools csrf={csrf} problemsOnly={problemsOnly} problems={problems.length} total={feeds.length} />
        {problemsOnly && problems.length === 0 ? (
          <p className="notice notice--ok" data-testid="no-problems">
            No feed has a problem.
          </p>
        ) : (
          <FeedsTable feeds={problemsOnly ? problems : feeds} csrf={csrf} now={now} worker={workerView} />
        )}
      </section>

      <div className="grid-2">
        <section className="card" aria-labelledby="ingest-h">
          <h2 id="ingest-h">Articles fetched per day</h2>
          <p className="small muted" style={{ margin: '0 0 6px' }}>
            Last 30 days (UTC)
          </p>
          <BarChart
            data={d.ingestion.map((x) => ({ key: x.day, value: x.articles }))}
            label="Articles fetched per day"
            unit="articles"
            testId="ingestion-chart"
          />
          <p className="small muted" style={{ margin: '8px 0 0' }} data-testid="ingestion-summary">
            {sum(d.ingestion, 'articles').toLocaleString('en')} articles fetched ({sum(d.ingestion, 'imported').toLocaleString('en')}{' '}
            imported) and {sum(d.ingestion, 'snippets').toLocaleString('en')} snippets in 30 days ·{' '}
            {sum(d.ingestion, 'feedChecks').toLocaleString('en')} feed checks, {sum(d.ingestion, 'feedErrors').toLocaleString('en')} failed
          </p>
        </section>
        <section className="card" aria-labelledby="index-h">
          <h2 id="index-h">Index and models</h2>
          <IndexStatus index={d.index} models={d.models} workers={d.workers} />
        </section>
      </div>

      <section className="card" aria-labelledby="events-h">
        <h2 id="events-h">Recent crawl events</h2>
        <EventsTable events={d.events} now={now} />
      </section>
    </>
  );
}
