/**
 * Crawl runs: `runCrawlOnce` checks every due feed once, each under its lease. Feeds are grouped by
 * host: the groups run side by side (up to crawlConcurrency) and a host's feeds one after another,
 * so that a slow or paused host holds one slot, never the others (its requests are one at a time
 * anyway). `crawlLoop` repeats that until its AbortSignal fires, sleeping until the next feed is
 * due. Errors of one feed never stop the others; cancellation stops between requests and releases
 * the leases.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../../lib/config';
import type { Db } from '../../lib/db/client';
import { describeError, isQuinError } from '../../lib/errors';
import { createContext, type ContextOptions, type CrawlContext, type Feed } from './context';
import { crawlFeed, type FeedRunResult } from './check-feed';
import { FEED_LEASE_SECONDS, acquireLease, dueFeeds, reclaimDeadLeases, releaseLease } from '../schedule/lease';

export interface CrawlOptions extends ContextOptions {
  /** Check exactly these feeds now, due or not (paused feeds excepted). */
  feedIds?: number[];
  /** Called once the run knows how many feeds it will check. */
  onStart?: (feeds: number) => void;
  /** Called after each feed check (progress output). */
  onFeed?: (r: FeedRunResult) => void;
}

export interface CrawlRunSummary {
  feeds: number;
  ok: number;
  notModified: number;
  failed: number;
  /** Feeds not fetched because their host asked for a pause (Retry-After); rescheduled for its end. */
  paused: number;
  /** Due feeds another process held. */
  busy: number;
  itemsSeen: number;
  itemsNew: number;
  articlesExtracted: number;
  articlesFailed: number;
  snippetsMade: number;
  durationMs: number;
  cancelled: boolean;
}

function emptySummary(): CrawlRunSummary {
  return {
    feeds: 0,
    ok: 0,
    notModified: 0,
    failed: 0,
    paused: 0,
    busy: 0,
    itemsSeen: 0,
    itemsNew: 0,
    articlesExtracted: 0,
    articlesFailed: 0,
    snippetsMade: 0,
    durationMs: 0,
    cancelled: false,
  };
}

function add(s: CrawlRunSummary, r: FeedRunResult): void {
  s.feeds++;
  if (r.outcome === 'ok') s.ok++;
  else if (r.outcome === 'not_modified') s.notModified++;
  else if (r.outcome === 'paused') s.paused++;
  else s.failed++;
  s.itemsSeen += r.itemsSeen;
  s.itemsNew += r.itemsNew;
  s.articlesExtracted += r.articlesExtracted;
  s.articlesFailed += r.articlesFailed;
  s.snippetsMade += r.snippetsMade;
}

async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

async function checkOne(
  ctx: CrawlContext,
  feed: Feed,
  force: boolean,
  summary: CrawlRunSummary,
  onFeed?: (r: FeedRunResult) => void,
): Promise<void> {
  if (ctx.signal?.aborted) return;
  if (!(await acquireLease(ctx.db, feed.id, { owner: ctx.owner, seconds: FEED_LEASE_SECONDS, now: ctx.now(), force }))) {
    summary.busy++;
    return;
  }
  try {
    // Re-read under the lease: another process may have checked it since it was selected.
    const fresh = await ctx.db.feed.findUnique({ where: { id: feed.id } });
    if (!fresh) return;
    const r = await crawlFeed(ctx, fresh);
    add(summary, r);
    onFeed?.(r);
  } catch (e) {
    if (isQuinError(e, 'CANCELLED')) summary.cancelled = true;
    else if (!(await stillListed(ctx, feed.id))) {
      // An admin removed it while it was checked: its rows went with it, and what the check found has nowhere to go.
      ctx.log.info('feed removed while it was being checked; what the check found was dropped', { feed: feed.url });
    } else {
      summary.failed++;
      ctx.log.error('feed check crashed', { feed: feed.url, error: describeError(e) });
    }
  } finally {
    await releaseLease(ctx.db, feed.id, ctx.owner).catch(() => undefined);
  }
}

/** Whether the feed is still in the database; true when that cannot be told (the crash is then reported as one). */
async function stillListed(ctx: CrawlContext, id: number): Promise<boolean> {
  return ctx.db.feed
    .count({ where: { id } })
    .then((n) => n > 0)
    .catch(() => true);
}

function hostOf(feed: Feed): string {
  try {
    return new URL(feed.url).host;
  } catch {
    return feed.url;
  }
}

/** The feeds grouped by host, in the order of each host's first feed. */
export function byHost(feeds: Feed[]): Feed[][] {
  const groups = new Map<string, Feed[]>();
  for (const f of feeds) {
    const key = hostOf(f);
    const g = groups.get(key);
    if (g) g.push(f);
    else groups.set(key, [f]);
  }
  return [...groups.values()];
}

export async function runCrawlOnce(db: Db, config: Config, opts: CrawlOptions = {}): Promise<CrawlRunSummary> {
  const started = Date.now();
  const ctx = createContext(db, config, opts);
  const summary = emptySummary();
  try {
    await checkDue(ctx, opts, summary);
  } finally {
    // A transport made for this run only: close its idle connections so that a CLI run can end.
    if (!opts.http) await ctx.http.close();
  }
  summary.cancelled ||= Boolean(ctx.signal?.aborted);
  summary.durationMs = Date.now() - started;
  return summary;
}

async function checkDue(ctx: CrawlContext, opts: CrawlOptions, summary: CrawlRunSummary): Promise<void> {
  const { db, config } = ctx;
  await reclaimDeadLeases(db, ctx.now()).catch((e: unknown) => ctx.log.warn('could not reclaim leases', { error: describeError(e) }));
  if (opts.feedIds) {
    const feeds = await db.feed.findMany({ where: { id: { in: opts.feedIds }, status: { not: 'paused' } }, orderBy: { id: 'asc' } });
    opts.onStart?.(feeds.length);
    await pool(byHost(feeds), config.crawlConcurrency, async (group) => {
      for (const feed of group) await checkOne(ctx, feed, true, summary, opts.onFeed);
    });
    return;
  }
  // Host groups of the due feeds; when they run out, a free slot looks again, so that a feed that
  // became due during the pass (just added, "Check now") is fetched in this pass, not the next one.
  // Each feed is checked at most once per pass.
  const seen = new Set<number>();
  const groups: Feed[][] = [];
  const refill = async () => {
    const fresh = (await dueFeeds(db, ctx.now())).filter((f) => !seen.has(f.id));
    for (const f of fresh) seen.add(f.id);
    groups.push(...byHost(fresh));
    return fresh.length;
  };
  await refill();
  opts.onStart?.(seen.size);
  const slot = async () => {
    while (!ctx.signal?.aborted) {
      const group = groups.shift() ?? ((await refill()) ? groups.shift() : undefined);
      if (!group) return;
      for (const feed of group) await checkOne(ctx, feed, false, summary, opts.onFeed);
    }
  };
  await Promise.all(Array.from({ length: config.crawlConcurrency }, slot));
}

export interface LoopOptions extends CrawlOptions {
  /** Longest sleep between two runs (new feeds are noticed within this time). */
  idleMaxMs?: number;
  onRun?: (s: CrawlRunSummary) => void;
}

/** Crawls until `signal` fires. One transport (robots cache, host delays) and one lease owner for the whole loop. */
export async function crawlLoop(db: Db, config: Config, opts: LoopOptions): Promise<number> {
  const base = createContext(db, config, opts);
  const idleMax = opts.idleMaxMs ?? 60_000;
  let runs = 0;
  try {
    while (!opts.signal?.aborted) {
      const s = await runCrawlOnce(db, config, { ...opts, http: base.http, owner: base.owner, log: base.log });
      runs++;
      opts.onRun?.(s);
      if (opts.signal?.aborted) break;
      const next = await db.feed.findFirst({
        where: { status: { in: ['active', 'broken'] } },
        orderBy: { nextCheckAt: 'asc' },
        select: { nextCheckAt: true },
      });
      const wait = next ? next.nextCheckAt.getTime() - Date.now() : idleMax;
      await sleep(Math.min(idleMax, Math.max(wait, 2000)), undefined, { signal: opts.signal }).catch(() => undefined);
    }
  } finally {
    if (!opts.http) await base.http.close();
  }
  return runs;
}
