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
  lastErrorAt: string | null;
  lastHttpStatus: number | null;
  itemsSeen: number;
  itemsNew: number;
  articlesExtracted: number;
  articlesFailed: number;
  snippetsMade: number;
  articles: number;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Broken feeds first, then failing ones, then by id. */
export async function listFeedHealth(db: Db): Promise<FeedHealth[]> {
  const feeds = await db.feed.findMany({ include: { _count: { select: { articles: true } } } });
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
    lastErrorAt: iso(f.lastErrorAt),
    lastHttpStatus: f.lastHttpStatus,
    itemsSeen: f.itemsSeen,
    itemsNew: f.itemsNew,
    articlesExtracted: f.articlesExtracted,
    articlesFailed: f.articlesFailed,
    snippetsMade: f.snippetsMade,
    articles: f._count.articles,
  }));
}

export interface CrawlStats {
  feeds: number;
  articles: number;
  snippets: number;
  feedsByStatus: Record<string, number>;
  totals: { itemsSeen: number; itemsNew: number; articlesExtracted: number; articlesFailed: number; snippetsMade: number };
  feedHealth: FeedHealth[];
}

export async function crawlStats(db: Db): Promise<CrawlStats> {
  const [feeds, articles, snippets, byStatus, sums, feedHealth] = await Promise.all([
    db.feed.count(),
    db.article.count(),
    db.snippet.count(),
    db.feed.groupBy({ by: ['status'], _count: { _all: true } }),
    db.feed.aggregate({ _sum: { itemsSeen: true, itemsNew: true, articlesExtracted: true, articlesFailed: true, snippetsMade: true } }),
    listFeedHealth(db),
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
    feedHealth,
  };
}
