/**
 * GET /metrics: what this process observed (search latency, outcomes, errors, Node.js process) plus
 * gauges read from the database at scrape time (feeds by status, crawl totals and errors by feed
 * status, corpus and index sizes, worker heartbeat). Admin sign-in counters only with the metrics token.
 */
import crypto from 'node:crypto';
import { eventLoopDelay } from '../../lib/event-loop';
import { exposition, processMetrics, scrapeRegistry } from '../../lib/web/metrics';
import { listWorkers } from '../../lib/web/worker-heartbeat';
import { indexInfo } from './index-info';
import { searchContextState, services } from './services';

type Scrape = ReturnType<typeof scrapeRegistry>;

async function crawlFamilies(r: Scrape): Promise<void> {
  const { db } = await services();
  const feeds = await db.feed.findMany({
    select: {
      id: true,
      status: true,
      consecutiveFailures: true,
      itemsSeen: true,
      itemsNew: true,
      articlesExtracted: true,
      articlesFailed: true,
      snippetsMade: true,
    },
  });
  const statusOf = new Map(feeds.map((f) => [f.id, f.status]));
  const by = <K extends keyof (typeof feeds)[number]>(key: K) => {
    const sums = new Map<string, number>();
    for (const f of feeds) sums.set(f.status, (sums.get(f.status) ?? 0) + Number(f[key]));
    return [...sums].map(([status, value]) => ({ labels: { feed_status: status }, value }));
  };
  const count = new Map<string, number>();
  const failing = new Map<string, number>();
  for (const f of feeds) {
    count.set(f.status, (count.get(f.status) ?? 0) + 1);
    if (f.consecutiveFailures > 0) failing.set(f.status, (failing.get(f.status) ?? 0) + 1);
  }
  const events = await db.crawlEvent.groupBy({ by: ['feedId', 'outcome'], _count: { _all: true } });
  const fetches = new Map<string, number>();
  for (const e of events) {
    const key = `${statusOf.get(e.feedId ?? -1) ?? 'removed'}\u0000${e.outcome}`;
    fetches.set(key, (fetches.get(key) ?? 0) + e._count._all);
  }
  r.gauge(
    'quin_feeds',
    'Feeds, by status (active, paused, broken).',
    [...count].map(([status, value]) => ({ labels: { status }, value })),
  );
  r.gauge(
    'quin_feeds_failing',
    'Feeds whose last check failed, by status.',
    [...failing].map(([status, value]) => ({ labels: { status }, value })),
  );
  r.counter(
    'quin_crawl_fetches_total',
    'Recorded fetches (feed, article, robots), by outcome and by the status of their feed; outcome="error" counts the crawl errors.',
    [...fetches].map(([key, value]) => {
      const [feed_status, outcome] = key.split('\u0000') as [string, string];
      return { labels: { feed_status, outcome }, value };
    }),
  );
  r.counter('quin_crawl_items_seen_total', 'Feed items seen, by feed status.', by('itemsSeen'));
  r.counter('quin_crawl_items_new_total', 'New feed items, by feed status.', by('itemsNew'));
  r.counter('quin_crawl_articles_extracted_total', 'Articles extracted, by feed status.', by('articlesExtracted'));
  r.counter('quin_crawl_articles_failed_total', 'Articles that could not be extracted, by feed status.', by('articlesFailed'));
  r.counter('quin_crawl_snippets_made_total', 'Snippets made from crawled articles, by feed status.', by('snippetsMade'));
}

async function corpusFamilies(r: Scrape): Promise<void> {
  const { config, db } = await services();
  const [articles, info, workers] = await Promise.all([db.article.count(), indexInfo(config, db), listWorkers(db)]);
  const up = workers.find((w) => w.up);
  r.gauge('quin_articles', 'Articles in the database.', [{ value: articles }]);
  r.gauge('quin_snippets', 'Snippets in the database.', [{ value: info.snippets }]);
  r.gauge(
    'quin_index_entries',
    'Snippets held by each index.',
    info.indexes.map((i) => ({ labels: { index: i.name, backend: i.backend }, value: i.entries })),
  );
  r.gauge(
    'quin_index_size_bytes',
    'Size of each index on disk.',
    info.indexes.filter((i) => i.bytes !== null).map((i) => ({ labels: { index: i.name, backend: i.backend }, value: i.bytes! })),
  );
  r.gauge('quin_index_pending_snippets', 'Snippets not yet in every index.', [{ value: info.pending }]);
  r.gauge('quin_worker_up', 'Whether a background worker (crawler + indexer) has beaten its heartbeat recently.', [{ value: up ? 1 : 0 }]);
  r.gauge('quin_worker_stuck', 'Whether a live worker has a loop that made no progress for too long (see /api/health).', [
    { value: up?.stuck ? 1 : 0 },
  ]);
  r.gauge('quin_worker_heartbeat_late', 'Whether the live worker has missed three heartbeats (its event loop may be blocked).', [
    { value: up?.late ? 1 : 0 },
  ]);
  const loop = workers[0]?.eventLoop;
  r.gauge(
    'quin_worker_event_loop_delay_seconds',
    "The worker's event-loop delay over the minute before its last heartbeat (p99 and max).",
    loop
      ? [
          { labels: { stat: 'p99' }, value: loop.p99Ms / 1000 },
          { labels: { stat: 'max' }, value: loop.maxMs / 1000 },
        ]
      : [],
  );
  r.gauge(
    'quin_worker_heartbeat_age_seconds',
    'Seconds since the last worker heartbeat.',
    workers[0] ? [{ value: Math.round(workers[0].ageSeconds) }] : [],
  );
  r.gauge('quin_search_ready', 'Whether this web process has its search indexes and models loaded.', [
    { value: searchContextState() === 'ready' ? 1 : 0 },
  ]);
}

/** True when the request carries the configured metrics token (Authorization: Bearer …); never without one configured. */
export function hasMetricsToken(authorization: string | null, token: string | undefined): boolean {
  if (!token || !authorization) return false;
  const given = Buffer.from(authorization.replace(/^Bearer\s+/i, ''));
  const wanted = Buffer.from(token);
  return given.length === wanted.length && crypto.timingSafeEqual(given, wanted);
}

export async function metricsText(authorization: string | null): Promise<{ text: string; contentType: string }> {
  const { config } = await services();
  const m = processMetrics();
  const own = hasMetricsToken(authorization, config.metricsToken) ? [m.registry, m.adminRegistry] : [m.registry];
  const scrape = scrapeRegistry();
  scrape.gauge('quin_up', 'The web process answers; the database gauges are present only when the database does.', [{ value: 1 }]);
  const loop = eventLoopDelay();
  scrape.gauge('quin_event_loop_delay_seconds', "This web process's event-loop delay over the last minute (p99 and max).", [
    { labels: { stat: 'p99' }, value: loop.p99Ms / 1000 },
    { labels: { stat: 'max' }, value: loop.maxMs / 1000 },
  ]);
  try {
    await crawlFamilies(scrape);
    await corpusFamilies(scrape);
    scrape.gauge('quin_database_up', 'Whether the database answered this scrape.', [{ value: 1 }]);
    return await exposition([...own, scrape.registry]);
  } catch {
    const down = scrapeRegistry();
    down.gauge('quin_up', 'The web process answers; the database gauges are present only when the database does.', [{ value: 1 }]);
    down.gauge('quin_database_up', 'Whether the database answered this scrape.', [{ value: 0 }]);
    return exposition([...own, down.registry]);
  }
}
