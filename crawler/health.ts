/**
 * Crawl health as data: per-feed rows (from the feed table's own columns) and global totals. The CLI
 * (`quin feeds list`, `quin stats`) and the web dashboard read these same functions.
 */
import type { Db } from '../lib/db/client';

export interface FeedHealth {
  id: number;
  url: string;
  title: string | null;
  status: string;
  intervalMinutes: number;
  lastCheckedAt: string | null;
  nextCheckAt: string;
  lastSuccessAt: string | null;
  consecutiveFailures: number;
  lastError: string | null;
  lastErrorCode: string | null;
  lastErrorAt: string | null;
  lastHttpStatus: number | null;
  /** What had to be forgiven to read the last document (XML read leniently), or null. */
  parseWarning: string | null;
  /** The feed's own polling hint (ttl, Cache-Control), minutes. */
  hintMinutes: number | null;
  itemsSeen: number;
  itemsNew: number;
  articlesExtracted: number;
  articlesFailed: number;
  snippetsMade: number;
  articles: number;
  /** Items listed by the feed whose article is still to be fetched. */
  pendingItems: number;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Broken feeds first, then failing ones, then by id. */
export async function listFeedHealth(db: Db): Promise<FeedHealth[]> {
  const [feeds, pending] = await Promise.all([
    db.feed.findMany({ include: { _count: { select: { articles: true } } } }),
    db.feedItem.groupBy({ by: ['feedId'], where: { status: 'pending' }, _count: { _all: true } }),
  ]);
  const pendingBy = new Map(pending.map((p) => [p.feedId, p._count._all]));
  const rank = (s: string, failures: number) => (s === 'broken' ? 0 : failures > 0 ? 1 : s === 'paused' ? 3 : 2);
  feeds.sort((a, b) => rank(a.status, a.consecutiveFailures) - rank(b.status, b.consecutiveFailures) || a.id - b.id);
  return feeds.map((f) => ({
    id: f.id,
    url: f.url,
    title: f.title,
    status: f.status,
    intervalMinutes: f.intervalMinutes,
    lastCheckedAt: iso(f.lastCheckedAt),
    nextCheckAt: f.nextCheckAt.toISOString(),
    lastSuccessAt: iso(f.lastSuccessAt),
    consecutiveFailures: f.consecutiveFailures,
    lastError: f.lastError,
    lastErrorCode: f.lastErrorCode,
    lastErrorAt: iso(f.lastErrorAt),
    lastHttpStatus: f.lastHttpStatus,
    parseWarning: f.parseWarning,
    hintMinutes: f.hintMinutes,
    itemsSeen: f.itemsSeen,
    itemsNew: f.itemsNew,
    articlesExtracted: f.articlesExtracted,
    articlesFailed: f.articlesFailed,
    snippetsMade: f.snippetsMade,
    articles: f._count.articles,
    pendingItems: pendingBy.get(f.id) ?? 0,
  }));
}

export interface CrawlStats {
  feeds: number;
  articles: number;
  snippets: number;
  feedsByStatus: Record<string, number>;
  totals: { itemsSeen: number; itemsNew: number; articlesExtracted: number; articlesFailed: number; snippetsMade: number };
  /** The last 14 UTC days. */
  perDay: DayIngestion[];
  feedHealth: FeedHealth[];
}

export async function crawlStats(db: Db): Promise<CrawlStats> {
  const [feeds, articles, snippets, byStatus, sums, feedHealth, perDay] = await Promise.all([
    db.feed.count(),
    db.article.count(),
    db.snippet.count(),
    db.feed.groupBy({ by: ['status'], _count: { _all: true } }),
    db.feed.aggregate({ _sum: { itemsSeen: true, itemsNew: true, articlesExtracted: true, articlesFailed: true, snippetsMade: true } }),
    listFeedHealth(db),
    ingestionPerDay(db, 14),
  ]);
  return {
    feeds,
    articles,
    snippets,
    feedsByStatus: Object.fromEntries(byStatus.map((r) => [r.status, r._count._all])),
    totals: {
      itemsSeen: sums._sum.itemsSeen ?? 0,
      itemsNew: sums._sum.itemsNew ?? 0,
      articlesExtracted: sums._sum.articlesExtracted ?? 0,
      articlesFailed: sums._sum.articlesFailed ?? 0,
      snippetsMade: sums._sum.snippetsMade ?? 0,
    },
    perDay,
    feedHealth,
  };
}

export interface DayIngestion {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  articles: number;
  snippets: number;
  feedChecks: number;
  feedErrors: number;
}

function provider(db: Db): 'sqlite' | 'postgres' {
  return (db as unknown as { _activeProvider?: string })._activeProvider === 'postgresql' ? 'postgres' : 'sqlite';
}

/** Rows created per UTC day since `since`, by table (articles, snippets) or by crawl-event filter. */
async function countPerDay(db: Db, table: 'articles' | 'snippets' | 'crawl_events', since: Date, where = ''): Promise<Map<string, number>> {
  const pg = provider(db) === 'postgres';
  const day = pg ? `to_char("created_at", 'YYYY-MM-DD')` : `substr("created_at", 1, 10)`;
  const sql = `SELECT ${day} AS day, COUNT(*) AS n FROM "${table}" WHERE "created_at" >= ${pg ? '$1' : '?'}${where} GROUP BY 1`;
  const rows = await db.$queryRawUnsafe<{ day: string; n: bigint | number }[]>(sql, pg ? since : since.toISOString());
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}

/** Ingestion per UTC day over the last `days` days (today included), oldest first, days without activity as zeros. */
export async function ingestionPerDay(db: Db, days = 30, now = new Date()): Promise<DayIngestion[]> {
  const n = Math.max(1, Math.min(Math.floor(days), 366));
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (n - 1)));
  const [articles, snippets, checks, errors] = await Promise.all([
    countPerDay(db, 'articles', since),
    countPerDay(db, 'snippets', since),
    countPerDay(db, 'crawl_events', since, ` AND "kind" = 'feed'`),
    countPerDay(db, 'crawl_events', since, ` AND "kind" = 'feed' AND "outcome" = 'error'`),
  ]);
  return Array.from({ length: n }, (_, i) => {
    const day = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return {
      day,
      articles: articles.get(day) ?? 0,
      snippets: snippets.get(day) ?? 0,
      feedChecks: checks.get(day) ?? 0,
      feedErrors: errors.get(day) ?? 0,
    };
  });
}

export interface CrawlEventView {
  id: number;
  at: string;
  feedId: number | null;
  kind: string;
  url: string;
  outcome: string;
  httpStatus: number | null;
  durationMs: number;
  bytes: number;
  itemsSeen: number;
  itemsNew: number;
  articlesExtracted: number;
  articlesFailed: number;
  snippetsMade: number;
  errorCode: string | null;
  error: string | null;
}

/** The latest crawl events, newest first (optionally of one feed or one kind). */
export async function recentCrawlEvents(
  db: Db,
  limit = 50,
  filter: { feedId?: number; kind?: 'feed' | 'article'; errorsOnly?: boolean } = {},
): Promise<CrawlEventView[]> {
  const rows = await db.crawlEvent.findMany({
    where: { feedId: filter.feedId, kind: filter.kind, outcome: filter.errorsOnly ? 'error' : undefined },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: Math.max(1, Math.min(limit, 1000)),
  });
  return rows.map(({ createdAt, ...r }) => ({ ...r, at: createdAt.toISOString() }));
}
