/**
 * Crawl health as data: per-feed rows (from the feed table's own columns) and global totals. The CLI
 * (`quin feeds list`, `quin stats`) and the web dashboard read these same functions.
 */
import type { Db } from '../../lib/db/client';
import { feedState, RECENT_ITEMS, type FeedState, type RecentItems } from './state';

export interface FeedHealth {
  id: number;
  url: string;
  title: string | null;
  siteUrl: string | null;
  /** Folder in the feed list (from OPML). */
  category: string | null;
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
  /** What had to be forgiven to read the last document (charset, invalid UTF-8, XML read leniently, new items capped), or null. */
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
  /** ok | new | degraded | failing | broken | paused (crawler/feeds/state.ts). */
  state: FeedState;
  /** Why the state is not ok. */
  stateReason: string | null;
  /** What became of the latest items (degraded: they do not become articles). */
  recentItems: RecentItems;
  /** Start of the current run of failed checks (the first failure after the last success). */
  failingSince: string | null;
  createdAt: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** What became of each feed's latest RECENT_ITEMS items, and the newest failure's reason. */
async function recentItemsByFeed(db: Db): Promise<Map<number, RecentItems>> {
  const latest = `SELECT feed_id, status, last_error, ROW_NUMBER() OVER (PARTITION BY feed_id ORDER BY first_seen_at DESC, id DESC) AS rn FROM feed_items`;
  const [counts, errors] = await Promise.all([
    db.$queryRawUnsafe<{ feed_id: number; status: string; n: bigint | number }[]>(
      `SELECT feed_id, status, COUNT(*) AS n FROM (${latest}) t WHERE rn <= ${RECENT_ITEMS} GROUP BY feed_id, status`,
    ),
    db.$queryRawUnsafe<{ feed_id: number; last_error: string }[]>(
      `SELECT feed_id, last_error FROM (${latest} WHERE status = 'failed' AND last_error IS NOT NULL) t WHERE rn = 1`,
    ),
  ]);
  const out = new Map<number, RecentItems>();
  const get = (id: number) => out.get(id) ?? out.set(id, { settled: 0, stored: 0, failed: 0, pending: 0, lastError: null }).get(id)!;
  for (const c of counts) {
    const r = get(Number(c.feed_id));
    const n = Number(c.n);
    if (c.status === 'pending') r.pending += n;
    else if (c.status === 'failed') {
      r.failed += n;
      r.settled += n;
    } else if (c.status === 'stored' || c.status === 'duplicate' || c.status === 'unchanged') {
      r.stored += n;
      r.settled += n;
    }
  }
  for (const e of errors) get(Number(e.feed_id)).lastError = e.last_error;
  return out;
}

/** When each failing feed's current run of failures began: its first failed check after the last success. */
async function failingSinceByFeed(
  db: Db,
  feeds: { id: number; consecutiveFailures: number; lastSuccessAt: Date | null; lastErrorAt: Date | null }[],
) {
  const failing = feeds.filter((f) => f.consecutiveFailures > 0);
  const firsts = await Promise.all(
    failing.map((f) =>
      db.crawlEvent.findFirst({
        where: { feedId: f.id, kind: 'feed', outcome: 'error', createdAt: { gt: f.lastSuccessAt ?? new Date(0) } },
        orderBy: { createdAt: 'asc' },
        select: { createdAt: true },
      }),
    ),
  );
  return new Map(failing.map((f, i) => [f.id, firsts[i]?.createdAt ?? f.lastErrorAt]));
}

const EMPTY_ITEMS: RecentItems = { settled: 0, stored: 0, failed: 0, pending: 0, lastError: null };
const STATE_RANK: Record<FeedState, number> = { broken: 0, failing: 1, degraded: 2, new: 3, ok: 4, paused: 5 };

/** Broken feeds first, then failing, degraded, new, ok and paused ones, then by id. */
export async function listFeedHealth(db: Db): Promise<FeedHealth[]> {
  const [feeds, pending, recent] = await Promise.all([
    db.feed.findMany({ include: { _count: { select: { articles: true } } } }),
    db.feedItem.groupBy({ by: ['feedId'], where: { status: 'pending' }, _count: { _all: true } }),
    recentItemsByFeed(db),
  ]);
  const pendingBy = new Map(pending.map((p) => [p.feedId, p._count._all]));
  const failingSince = await failingSinceByFeed(db, feeds);
  const rows = feeds.map((f) => {
    const recentItems = recent.get(f.id) ?? EMPTY_ITEMS;
    const view = feedState({ ...f, lastSuccessAt: iso(f.lastSuccessAt), recentItems });
    return { f, recentItems, view };
  });
  rows.sort((a, b) => STATE_RANK[a.view.state] - STATE_RANK[b.view.state] || a.f.id - b.f.id);
  return rows.map(({ f, recentItems, view }) => ({
    id: f.id,
    url: f.url,
    title: f.title,
    siteUrl: f.siteUrl,
    category: f.category,
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
    state: view.state,
    stateReason: view.reason,
    recentItems,
    failingSince: iso(failingSince.get(f.id) ?? null),
    createdAt: f.createdAt.toISOString(),
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
  /** Articles fetched by the crawler (imported corpora are counted in `imported`). */
  articles: number;
  /** Articles from `quin import`. */
  imported: number;
  snippets: number;
  feedChecks: number;
  feedErrors: number;
}

function provider(db: Db): 'sqlite' | 'postgres' {
  return (db as unknown as { _activeProvider?: string })._activeProvider === 'postgresql' ? 'postgres' : 'sqlite';
}

/** Rows created per UTC day since `since`, by table (articles, snippets), with an optional extra filter. */
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
  const [articles, imported, snippets, checks, errors] = await Promise.all([
    countPerDay(db, 'articles', since, ` AND "text_source" <> 'import'`),
    countPerDay(db, 'articles', since, ` AND "text_source" = 'import'`),
    countPerDay(db, 'snippets', since),
    countPerDay(db, 'crawl_events', since, ` AND "kind" = 'feed'`),
    countPerDay(db, 'crawl_events', since, ` AND "kind" = 'feed' AND "outcome" = 'error'`),
  ]);
  return Array.from({ length: n }, (_, i) => {
    const day = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return {
      day,
      articles: articles.get(day) ?? 0,
      imported: imported.get(day) ?? 0,
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
