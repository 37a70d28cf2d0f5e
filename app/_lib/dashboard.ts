/** Everything the crawl-health dashboard shows, gathered in one call. */
import {
  crawlStats,
  ingestionPerDay,
  recentCrawlEvents,
  seedState,
  type CrawlStats,
  type DayIngestion,
  type SeedState,
} from '../../crawler';
import { seedList } from '../../lib/web/default-feeds';
import { listWorkers, type WorkerStatus } from '../../lib/web/worker-heartbeat';
import { indexInfo, type IndexInfo } from './index-info';
import { servingIndexes, type Serving } from './serving';
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
  ingestion: DayIngestion[];
  events: CrawlEventRow[];
  index: IndexInfo;
  workers: WorkerStatus[];
  models: {
    state: string;
    encoder: string | null;
    reranker: string | null;
    nli: string | null;
    bm25: string | null;
    serving: Serving | null;
  };
  /** Whether the default feeds were added, and why not; how many the list has. */
  seed: { state: SeedState; count: number };
  workerPollSeconds: number;
  now: string;
}

async function recentEvents(limit: number, titles: Map<number, string>): Promise<CrawlEventRow[]> {
  const rows = await recentCrawlEvents((await services()).db, limit);
  return rows.map((e) => ({
    id: e.id,
    at: e.at,
    feedId: e.feedId,
    feedTitle: e.feedId === null ? null : (titles.get(e.feedId) ?? null),
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
  if (state !== 'ready') return { state, encoder: null, reranker: null, nli: null, bm25: null, serving: null };
  const ctx = await searchContext();
  return {
    state,
    encoder: ctx.indexes.encoder.id,
    reranker: ctx.reranker?.id ?? null,
    nli: ctx.verdict?.id ?? null,
    bm25: ctx.indexes.bm25.backend,
    serving: await servingIndexes(),
  };
}

export async function dashboardData(): Promise<DashboardData> {
  const { config, db } = await services();
  const stats = await crawlStats(db);
  const titles = new Map(stats.feedHealth.map((f) => [f.id, f.title ?? f.url]));
  const [ingestion, events, index, workers, models, seed] = await Promise.all([
    ingestionPerDay(db, 30),
    recentEvents(25, titles),
    indexInfo(config, db),
    listWorkers(db),
    modelsServing(),
    seedState(db, config),
  ]);
  const seedInfo = { state: seed, count: seedList(config.seedFeeds).length };
  return {
    stats,
    ingestion,
    events,
    index,
    workers,
    models,
    seed: seedInfo,
    workerPollSeconds: config.workerPollSeconds,
    now: new Date().toISOString(),
  };
}
