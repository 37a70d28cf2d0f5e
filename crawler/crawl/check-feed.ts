/**
 * One check of one feed (the caller holds its lease): fetch (conditional), parse, remember new items,
 * fetch the pending items' articles, then record the outcome on the feed row with a crawl event and
 * the next check time. Writes that belong together share a transaction: the new items with the
 * feed's ETag and counters; each article with its snippets, item status and counters; the final
 * status with its event. A crash at any point leaves a consistent state that the next run continues.
 */
import { isQuinError, type QuinError } from '../../lib/errors';
import type { CrawlContext, Feed, FeedItemRow } from './context';
import { errorCode, errorStatus, errorText, recordEvent } from '../store/events';
import type { FeedItem, ParsedFeed } from '../feeds/parser';
import { parseMaxAge, type FetchResponse } from '../http';
import { processItem } from './item-article';
import { FEED_LEASE_SECONDS, renewLease } from '../schedule/lease';
import { BACKOFF_MAX_MINUTES, BROKEN_AFTER_FAILURES, nextCheck, type ScheduleInput } from '../schedule/next-check';
import { transaction, type Tx } from '../../lib/db/retry';
import { storable } from '../text/storable';

export interface FeedRunResult {
  feedId: number;
  url: string;
  /** `paused`: not fetched, because its host (or its URL) asked for a pause; rescheduled for the pause's end. */
  outcome: 'ok' | 'not_modified' | 'error' | 'paused';
  httpStatus: number | null;
  itemsSeen: number;
  itemsNew: number;
  articlesExtracted: number;
  articlesFailed: number;
  /** Items left for the next check because their host asked for a pause. */
  articlesDeferred: number;
  snippetsMade: number;
  durationMs: number;
  errorCode?: string;
  error?: string;
}

/** Keys looked up, and rows inserted, per statement. */
const IN_CHUNK = 400;
const INSERT_BATCH = 100;

function hintMinutes(parsed: ParsedFeed | null, res: FetchResponse): number | null {
  const maxAge = parseMaxAge(res.cacheControl ?? undefined);
  const hints = [parsed?.ttlMinutes ?? null, maxAge !== null ? Math.ceil(maxAge / 60) : null].filter(
    (h): h is number => h !== null && h > 0,
  );
  return hints.length ? Math.max(...hints) : null;
}

/** An item's key as stored (and so as looked up): keys longer than the column's cap are cut. */
const MAX_KEY_CHARS = 2000;
const storedKey = (it: FeedItem) => it.key.slice(0, MAX_KEY_CHARS);

/** The feed's items once each (by stored key), newest first (undated items after the dated ones, in the feed's order). Pure. */
export function newestFirst(items: readonly FeedItem[]): FeedItem[] {
  const unique = [...new Map(items.map((i) => [storedKey(i), i])).values()];
  const time = (i: FeedItem) => i.published?.getTime() ?? -Infinity;
  return unique
    .map((item, at) => ({ item, at }))
    .sort((a, b) => time(b.item) - time(a.item) || a.at - b.at)
    .map((x) => x.item);
}

function itemRow(feed: Feed, it: FeedItem, now: Date) {
  return storable({
    feedId: feed.id,
    itemKey: storedKey(it),
    link: it.link,
    title: it.title.slice(0, 1000) || null,
    author: it.author?.slice(0, 300) ?? null,
    publishedAt: it.published,
    fallbackText: it.text || null,
    fallbackSource: it.textSource,
    firstSeenAt: now,
    lastSeenAt: now,
    status: it.link || it.text ? 'pending' : 'skipped',
    lastError: it.link || it.text ? null : 'no link and no text',
  });
}

/**
 * New items one check takes in, newest first (the rest at the following checks): a feed listing
 * 100,000 new items must not hold the crawl or its memory (docs/benchmarks.md, big feed).
 */
export const MAX_NEW_ITEMS_PER_CHECK = 500;
/** Pages fetched per feed per check: at the host delay, about a minute of one host's time. */
export const MAX_ARTICLES_PER_CHECK = 50;
/** Checks in which an item whose page failed is tried again (a flaky page gets a second and third chance, a dead one stops). */
export const MAX_ITEM_ATTEMPTS = 3;

/**
 * Remembers the items not seen before (as pending), at most MAX_NEW_ITEMS_PER_CHECK of them, newest
 * first: a feed that lists 100,000 new items is taken in over several checks instead of holding the
 * crawl (and its memory) in one. Known items are looked up chunk by chunk, newest first, until the
 * cap is reached. One transaction with the feed's validators and counters. Returns the new items and
 * whether some were left for the next checks.
 */
async function rememberItems(
  ctx: CrawlContext,
  feed: Feed,
  parsed: ParsedFeed,
  res: FetchResponse,
): Promise<{ added: number; capped: boolean; title: string | null }> {
  const now = ctx.now();
  const cap = ctx.config.tuning.maxNewItemsPerCheck ?? MAX_NEW_ITEMS_PER_CHECK;
  const ordered = newestFirst(parsed.items);
  return transaction(ctx.db, async (tx) => {
    const fresh: FeedItem[] = [];
    let scanned = 0;
    let left = 0;
    for (; scanned < ordered.length && fresh.length < cap; scanned += IN_CHUNK) {
      const chunk = ordered.slice(scanned, scanned + IN_CHUNK);
      const keys = chunk.map(storedKey);
      const known = new Set(
        (await tx.feedItem.findMany({ where: { feedId: feed.id, itemKey: { in: keys } }, select: { itemKey: true } })).map(
          (r) => r.itemKey,
        ),
      );
      if (known.size) await tx.feedItem.updateMany({ where: { feedId: feed.id, itemKey: { in: [...known] } }, data: { lastSeenAt: now } });
      for (const it of chunk) {
        if (known.has(storedKey(it))) continue;
        if (fresh.length < cap) fresh.push(it);
        else left++;
      }
    }
    const capped = left > 0 || (fresh.length >= cap && scanned < ordered.length);
    // Left for the next checks: the document must be read again then, not answered 304 Not Modified.
    const validators = capped ? { etag: null, lastModified: null } : { etag: res.etag, lastModified: res.lastModified };
    const warnings = capped
      ? [...parsed.warnings, `more than ${cap} new items: the newest ${cap} were taken in, the rest follow at the next checks`]
      : parsed.warnings;
    for (let i = 0; i < fresh.length; i += INSERT_BATCH)
      await tx.feedItem.createMany({ data: fresh.slice(i, i + INSERT_BATCH).map((it) => itemRow(feed, it, now)) });
    // The feed's own title only fills an empty one, tested as it is written: an admin's title saved
    // while this check fetched the feed must not be put back to the title read before the fetch.
    if (parsed.title) await tx.feed.updateMany({ where: { id: feed.id, title: null }, data: storable({ title: parsed.title }) });
    const row = await tx.feed.update({
      where: { id: feed.id },
      data: {
        ...storable({
          ...validators,
          siteUrl: parsed.siteUrl ?? feed.siteUrl,
          parseWarning: warnings.length ? warnings.join('; ').slice(0, 1000) : null,
        }),
        hintMinutes: hintMinutes(parsed, res),
        itemsSeen: { increment: parsed.items.length },
        itemsNew: { increment: fresh.length },
      },
    });
    return { added: fresh.length, capped, title: row.title };
  });
}

/** Items still to fetch: new ones, and failed ones that have attempts left; newest first. */
async function pendingItems(ctx: CrawlContext, feed: Feed): Promise<FeedItemRow[]> {
  return ctx.db.feedItem.findMany({
    where: { feedId: feed.id, OR: [{ status: 'pending' }, { status: 'failed', attempts: { lt: MAX_ITEM_ATTEMPTS } }] },
    orderBy: [{ firstSeenAt: 'desc' }, { publishedAt: 'desc' }, { id: 'asc' }],
    take: ctx.config.tuning.maxArticlesPerFeedRun ?? MAX_ARTICLES_PER_CHECK,
  });
}

async function fetchArticles(ctx: CrawlContext, feed: Feed, totals: FeedRunResult): Promise<void> {
  const leaseMs = FEED_LEASE_SECONDS * 1000;
  let renewedAt = Date.now();
  for (const item of await pendingItems(ctx, feed)) {
    if (ctx.signal?.aborted) break;
    const r = await processItem(ctx, feed, item);
    if (r.status === 'stored') {
      totals.articlesExtracted++;
      totals.snippetsMade += r.snippets;
    } else if (r.status === 'failed') totals.articlesFailed++;
    else if (r.status === 'deferred') totals.articlesDeferred++;
    if (Date.now() - renewedAt > leaseMs / 3) {
      if (!(await renewLease(ctx.db, feed.id, ctx.owner, FEED_LEASE_SECONDS))) {
        ctx.log.warn('lost the lease on a feed; leaving it to its new holder', { feed: feed.url });
        break;
      }
      renewedAt = Date.now();
    }
  }
}

/**
 * The next check planned from the feed as it is now, read in the write's transaction: an admin may
 * have paused the feed or changed its interval while it was being checked, and that wins.
 */
async function planNow(
  tx: Tx,
  ctx: CrawlContext,
  feed: Feed,
  now: Date,
  input: Pick<ScheduleInput, 'failures' | 'hintMinutes' | 'retryAfterMs'>,
) {
  const current = await tx.feed.findUnique({ where: { id: feed.id }, select: { status: true, intervalMinutes: true } });
  const plan = nextCheck({ now, intervalMinutes: current?.intervalMinutes ?? feed.intervalMinutes, ...input, ...backoff(ctx) });
  return { ...plan, status: current?.status === 'paused' ? 'paused' : plan.status };
}

async function recordSuccess(ctx: CrawlContext, feed: Feed, r: FeedRunResult, hint: number | null, bytes: number): Promise<void> {
  const now = ctx.now();
  await transaction(ctx.db, async (tx) => {
    const plan = await planNow(tx, ctx, feed, now, { failures: 0, hintMinutes: hint });
    await tx.feed.updateMany({
      where: { id: feed.id, leaseOwner: ctx.owner },
      data: {
        status: plan.status,
        lastCheckedAt: now,
        lastSuccessAt: now,
        nextCheckAt: plan.nextCheckAt,
        consecutiveFailures: 0,
        lastHttpStatus: r.httpStatus,
      },
    });
    await recordEvent(tx, { ...eventOf(r), outcome: r.outcome === 'not_modified' ? 'not_modified' : 'ok', bytes });
  });
}

function eventOf(r: FeedRunResult) {
  const { feedId, url, httpStatus, durationMs, itemsSeen, itemsNew, articlesExtracted, articlesFailed, snippetsMade } = r;
  return {
    feedId,
    kind: 'feed' as const,
    url,
    httpStatus,
    durationMs,
    itemsSeen,
    itemsNew,
    articlesExtracted,
    articlesFailed,
    snippetsMade,
  };
}

function backoff(ctx: CrawlContext) {
  return {
    backoffMaxMinutes: ctx.config.tuning.backoffMaxMinutes ?? BACKOFF_MAX_MINUTES,
    brokenAfterFailures: ctx.config.tuning.brokenAfterFailures ?? BROKEN_AFTER_FAILURES,
  };
}

async function recordFailure(ctx: CrawlContext, feed: Feed, r: FeedRunResult, err: unknown): Promise<FeedRunResult> {
  const now = ctx.now();
  const failures = feed.consecutiveFailures + 1;
  const retryAfterMs = isQuinError(err) && typeof err.details?.retryAfterMs === 'number' ? err.details.retryAfterMs : null;
  const result: FeedRunResult = { ...r, outcome: 'error', httpStatus: errorStatus(err), errorCode: errorCode(err), error: errorText(err) };
  const plan = await transaction(ctx.db, async (tx) => {
    const plan = await planNow(tx, ctx, feed, now, { failures, retryAfterMs });
    await tx.feed.updateMany({
      where: { id: feed.id, leaseOwner: ctx.owner },
      data: {
        status: plan.status,
        lastCheckedAt: now,
        nextCheckAt: plan.nextCheckAt,
        consecutiveFailures: failures,
        lastError: result.error,
        lastErrorCode: result.errorCode,
        lastErrorAt: now,
        lastHttpStatus: result.httpStatus,
      },
    });
    await recordEvent(tx, { ...eventOf(result), outcome: 'error', error: err });
    return plan;
  });
  ctx.log.warn('feed check failed', {
    feed: feed.url,
    code: result.errorCode,
    error: result.error,
    failures,
    next: plan.nextCheckAt.toISOString(),
  });
  return result;
}

/**
 * The feed was not fetched because its host or URL asked for a pause (Retry-After) that has not
 * ended: it is due again when the pause ends (within the backoff cap). Nothing was asked of the
 * server, so its failure count and status stay as they are.
 */
async function recordPaused(ctx: CrawlContext, feed: Feed, r: FeedRunResult, err: QuinError): Promise<FeedRunResult> {
  const now = ctx.now();
  const retryAfterMs = typeof err.details?.retryAfterMs === 'number' ? err.details.retryAfterMs : 0;
  const waitMs = Math.min(backoff(ctx).backoffMaxMinutes * 60_000, Math.max(retryAfterMs, 60_000));
  const result: FeedRunResult = { ...r, outcome: 'paused', errorCode: err.code, error: errorText(err) };
  await transaction(ctx.db, async (tx) => {
    await tx.feed.updateMany({
      where: { id: feed.id, leaseOwner: ctx.owner },
      data: { nextCheckAt: new Date(now.getTime() + waitMs), lastError: result.error, lastErrorCode: result.errorCode, lastErrorAt: now },
    });
    await recordEvent(tx, { ...eventOf(result), outcome: 'skipped', error: err });
  });
  ctx.log.info('feed skipped: its host asked for a pause', { feed: feed.url, next: new Date(now.getTime() + waitMs).toISOString() });
  return result;
}

export async function crawlFeed(ctx: CrawlContext, feed: Feed): Promise<FeedRunResult> {
  const started = Date.now();
  const r: FeedRunResult = {
    feedId: feed.id,
    url: feed.url,
    outcome: 'ok',
    httpStatus: null,
    itemsSeen: 0,
    itemsNew: 0,
    articlesExtracted: 0,
    articlesFailed: 0,
    articlesDeferred: 0,
    snippetsMade: 0,
    durationMs: 0,
  };
  try {
    const res = await ctx.http.fetch({
      url: feed.url,
      expect: 'feed',
      etag: feed.etag,
      lastModified: feed.lastModified,
      signal: ctx.signal,
    });
    r.httpStatus = res.status;
    let hint = feed.hintMinutes;
    let current = feed;
    if (res.notModified) r.outcome = 'not_modified';
    else {
      const parsed = await ctx.parser.parseFeed(res.body, { url: res.url, headerCharset: res.charset, now: ctx.now() });
      if (parsed.warnings.length) ctx.log.warn('feed read with warnings', { feed: feed.url, warnings: parsed.warnings.join('; ') });
      r.itemsSeen = parsed.items.length;
      const { added, capped, title } = await rememberItems(ctx, feed, parsed, res);
      r.itemsNew = added;
      if (capped) ctx.log.info('feed lists more new items than one check takes in; the rest follow', { feed: feed.url, added });
      hint = hintMinutes(parsed, res);
      // The articles name the feed as their source: its title as stored now (an admin's, or the one just learned).
      current = { ...feed, title, siteUrl: parsed.siteUrl ?? feed.siteUrl };
    }
    // Pending items are fetched after a 304 too: a run cut short leaves some behind.
    await fetchArticles(ctx, current, r);
    if (ctx.signal?.aborted) return { ...r, durationMs: Date.now() - started };
    r.durationMs = Date.now() - started;
    await recordSuccess(ctx, feed, r, hint, res.wireBytes);
    return r;
  } catch (e) {
    if (isQuinError(e, 'CANCELLED')) throw e;
    r.durationMs = Date.now() - started;
    if (isQuinError(e, 'FETCH_PAUSED')) return recordPaused(ctx, feed, r, e);
    return recordFailure(ctx, feed, r, e);
  }
}
