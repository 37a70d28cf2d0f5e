/** Everything the crawl-health dashboard shows, gathered in one call. */
import { crawlStats, type CrawlStats } from '../../crawler';
import { listWorkers, type WorkerStatus } from '../../lib/web/worker-heartbeat';
import { indexInfo, type IndexInfo } from './index-info';
import { searchContext, searchContextState, services } from './services';

export interface CrawlEventRow {
  id: number;
  at: string;
  feedId: number | null;
  feedTitle: string | null;
  kind: string;
  url: string;
  outcome: string;
  httpStatus: number | null;
  durationMs: number;
  bytes: number;
  error: string | null;
}

export interface DashboardData {
  stats: CrawlStats;
  ingestion: { day: string; articles: number }[];
  events: CrawlEventRow[];
  index: IndexInfo;
  workers: WorkerStatus[];
  models: { state: string; encoder: string | null; reranker: string | null; nli: string | null; bm25: string | null };
  now: string;
}

const DAY_MS = 86_400_000;

/** Articles fetched per day over the last `days` days (UTC), oldest first, zeros included. */
async function ingestionPerDay(days: number): Promise<{ day: string; articles: number }[]> {
  const { db } = await services();
  const since = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS);
  const rows = await db.article.findMany({ where: { fetchedAt: { gte: since } }, select: { fetchedAt: true } });
  const counts = new Map<string, number>();
  for (const r of rows) {
    const day = r.fetchedAt.toISOString().slice(0, 10);
    counts.set(day, (counts.get(day) ?? 0) + 1);
  }
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    return { day, articles: counts.get(day) ?? 0 };
  });
}

async function recentEvents(limit: number): Promise<CrawlEventRow[]> {
  const { db } = await services();
  const rows = await db.crawlEvent.findMany({ orderBy: { id: 'desc' }, take: limit, include: { feed: { select: { title: true, url: true } } } });
  return rows.map((e) => ({
    id: e.id,
    at: e.createdAt.toISOString(),
    feedId: e.feedId,
    feedTitle: e.feed?.title ?? e.feed?.url ?? null,
    kind: e.kind,
    url: e.url,
    outcome: e.outcome,
    httpStatus: e.httpStatus,
    durationMs: e.durationMs,
    bytes: e.bytes,
    error: e.error,
  }));
}

async function modelsServing(): Promise<DashboardData['models']> {
  const state = searchContextState();
  if (state !== 'ready') return { state, encoder: null, reranker: null, nli: null, bm25: null };
  const ctx = await searchContext();
  return { state, encoder: ctx.indexes.encoder.id, reranker: ctx.reranker?.id ?? null, nli: ctx.verdict?.id ?? null, bm25: ctx.indexes.bm25.backend };
}

export async function dashboardData(): Promise<DashboardData> {
  const { config, db } = await services();
  const [stats, ingestion, events, index, workers, models] = await Promise.all([
    crawlStats(db),
    ingestionPerDay(30),
    recentEvents(25),
    indexInfo(config, db),
    listWorkers(db),
    modelsServing(),
  ]);
  return { stats, ingestion, events, index, workers, models, now: new Date().toISOString() };
}
