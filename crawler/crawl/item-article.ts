/**
 * One feed item → one stored article. Fetches the item's page (unless an article with that URL is
 * already stored, e.g. from another feed), extracts the main text, falls back to the item's own text
 * when the page fails or yields too little, picks the publication date (item, else page metadata,
 * else first seen) and stores article + snippets + the item's new status + the counters + the event
 * in ONE transaction.
 */
import crypto from 'node:crypto';
import { isQuinError, type QuinError } from '../../lib/errors';
import { canonicalUrl } from '../extract/canonical';
import { decodeBody } from '../text/charset';
import type { CrawlContext, Feed, FeedItemRow } from './context';
import { recordEvent, errorText, type EventInput } from '../store/events';
import type { ExtractedPage } from '../extract/article';
import { transaction, type Tx } from '../../lib/db/retry';
import { storeArticle, type ArticleInput, type PublishedAtSource, type StoreResult, type TextSource } from '../store/articles';

/** `deferred`: the page was not asked for (its host asked for a pause); the item stays pending, no attempt used. */
export type ItemStatus = 'stored' | 'duplicate' | 'failed' | 'skipped' | 'deferred';

export interface ItemOutcome {
  status: ItemStatus;
  articleId: number | null;
  snippets: number;
  /** The page could not be used and the item's own text was stored instead. */
  fallback: boolean;
  error?: string;
}

interface PageResult {
  page: ExtractedPage | null;
  event: EventInput | null;
  error: QuinError | null;
}

/**
 * The page itself was not refused: its host or URL is paused, its turn at the host came too late, or
 * the host asked for a pause (429, or a pause asked for at its robots.txt). Such an item is left for
 * the next check without using an attempt. (A page's own 503 does use one: a page that is always
 * "in maintenance" must end in its fallback text, not wait forever.)
 */
function notAsked(e: unknown): boolean {
  if (isQuinError(e, 'FETCH_PAUSED')) return true;
  if (isQuinError(e, 'FETCH_TIMEOUT')) return e.details?.phase === 'queue';
  if (!isQuinError(e, 'FETCH_HTTP_STATUS') || typeof e.details?.retryAfterMs !== 'number') return false;
  return e.details.status === 429 || e.details.robots === true;
}

interface ChosenText {
  text: string;
  textSource: TextSource;
  extractionStatus: 'ok' | 'fallback';
}

/**
 * The page's text when it is long enough; otherwise whichever of page and item text is longer
 * (the item's own text is marked as a fallback). Null when neither has any text. Pure.
 */
/**
 * Page text shorter than this falls back to the item's own text when that is longer: below a few
 * sentences the extractor has usually caught a cookie banner or a teaser, not the article.
 */
export const MIN_ARTICLE_CHARS = 250;

export function chooseText(pageText: string, itemText: string | null, itemSource: string | null, minChars: number): ChosenText | null {
  const item = (itemText ?? '').trim();
  const page = pageText.trim();
  if (page.length >= minChars || (page && page.length >= item.length))
    return { text: page, textSource: 'readability', extractionStatus: 'ok' };
  if (item)
    return { text: item, textSource: itemSource === 'item_content' ? 'item_content' : 'item_description', extractionStatus: 'fallback' };
  return null;
}

/** Publication date and where it came from: the item, else the page's metadata, else first seen. Pure. */
export function choosePublished(
  item: Pick<FeedItemRow, 'publishedAt' | 'firstSeenAt'>,
  page: ExtractedPage | null,
): { publishedAt: Date; publishedAtSource: PublishedAtSource } {
  if (item.publishedAt) return { publishedAt: item.publishedAt, publishedAtSource: 'item' };
  if (page?.published) return { publishedAt: page.published.date, publishedAtSource: page.published.source };
  return { publishedAt: item.firstSeenAt, publishedAtSource: 'first_seen' };
}

/** A stable URL for an item that has no link: its guid when that is a URL, else the feed URL plus a hash. */
export function itemUrl(feed: Pick<Feed, 'url'>, item: Pick<FeedItemRow, 'link' | 'itemKey'>): string {
  if (item.link) return canonicalUrl(item.link) ?? item.link;
  const fromGuid = /^https?:\/\//i.test(item.itemKey) ? canonicalUrl(item.itemKey) : null;
  return fromGuid ?? `${feed.url}#item-${crypto.createHash('sha1').update(item.itemKey).digest('hex').slice(0, 16)}`;
}

async function fetchPage(ctx: CrawlContext, feed: Feed, link: string): Promise<PageResult> {
  const started = Date.now();
  try {
    const res = await ctx.http.fetch({ url: link, expect: 'html', signal: ctx.signal });
    const page = await ctx.parser.extractArticle(decodeBody(res.body, res.charset).text, res.url, ctx.now());
    const event: EventInput = {
      feedId: feed.id,
      kind: 'article',
      url: link,
      outcome: 'ok',
      httpStatus: res.status,
      durationMs: res.durationMs,
      bytes: res.wireBytes,
    };
    return { page, event, error: null };
  } catch (e) {
    if (isQuinError(e, 'CANCELLED')) throw e;
    const error = isQuinError(e) ? e : null;
    const outcome = isQuinError(e, 'FETCH_ROBOTS') || isQuinError(e, 'FETCH_BLOCKED') ? 'skipped' : 'error';
    return {
      page: null,
      event: { feedId: feed.id, kind: 'article', url: link, outcome, durationMs: Date.now() - started, error: e },
      error,
    };
  }
}

async function markItem(tx: Tx, item: FeedItemRow, status: ItemStatus, articleId: number | null, error: string | null): Promise<void> {
  await tx.feedItem.update({
    where: { id: item.id },
    data: { status, articleId, lastError: error, attempts: status === 'failed' ? { increment: 1 } : item.attempts },
  });
}

async function recordFailure(
  ctx: CrawlContext,
  feed: Feed,
  item: FeedItemRow,
  event: EventInput | null,
  reason: string,
): Promise<ItemOutcome> {
  await transaction(ctx.db, async (tx) => {
    await markItem(tx, item, 'failed', null, reason);
    await tx.feed.update({ where: { id: feed.id }, data: { articlesFailed: { increment: 1 } } });
    if (event) await recordEvent(tx, event);
  });
  return { status: 'failed', articleId: null, snippets: 0, fallback: false, error: reason };
}

export async function processItem(ctx: CrawlContext, feed: Feed, item: FeedItemRow): Promise<ItemOutcome> {
  // Already stored under this URL (by this feed earlier, or by another feed): nothing to fetch.
  if (item.link) {
    const known = await ctx.db.article.findFirst({
      where: { OR: [{ canonicalUrl: itemUrl(feed, item) }, { originalUrl: item.link }] },
      select: { id: true },
    });
    if (known) {
      await transaction(ctx.db, (tx) => markItem(tx, item, 'duplicate', known.id, null));
      return { status: 'duplicate', articleId: known.id, snippets: 0, fallback: false };
    }
  }

  const { page, event, error } = item.link ? await fetchPage(ctx, feed, item.link) : { page: null, event: null, error: null };
  if (error && notAsked(error)) return { status: 'deferred', articleId: null, snippets: 0, fallback: false, error: errorText(error) };
  const chosen = chooseText(page?.text ?? '', item.fallbackText, item.fallbackSource, MIN_ARTICLE_CHARS);
  if (!chosen) {
    const why = error
      ? `page unusable (${errorText(error)}) and the item has no text of its own`
      : item.link
        ? 'the page has no article text and the item none of its own'
        : 'no link and no text';
    return recordFailure(ctx, feed, item, event, why);
  }

  const input: ArticleInput = {
    canonicalUrl: page?.canonicalUrl ?? itemUrl(feed, item),
    originalUrl: item.link ?? itemUrl(feed, item),
    feedId: feed.id,
    externalId: item.itemKey.slice(0, 500),
    title: item.title || page?.title || '(untitled)',
    author: item.author ?? page?.author ?? null,
    source: feed.title ?? page?.siteName ?? new URL(feed.url).hostname,
    language: page?.language ?? null,
    ...choosePublished(item, page),
    fetchedAt: ctx.now(),
    textSource: chosen.textSource,
    extractionStatus: chosen.extractionStatus,
    text: chosen.text,
    claimReviews: page?.claimReviews,
  };

  let outcome: ItemOutcome | null = null;
  const result: StoreResult = await storeArticle(ctx.db, input, ctx.window, {
    afterEach: async (tx, r) => {
      const stored = r.outcome === 'created' || r.outcome === 'updated';
      const status: ItemStatus = stored ? 'stored' : r.outcome === 'unchanged' ? 'duplicate' : 'failed';
      const reason = r.outcome === 'empty' ? 'text too short for a snippet' : null;
      await markItem(tx, item, status, r.outcome === 'empty' ? null : r.articleId, reason);
      await tx.feed.update({
        where: { id: feed.id },
        data: stored
          ? { articlesExtracted: { increment: 1 }, snippetsMade: { increment: r.snippets } }
          : status === 'failed'
            ? { articlesFailed: { increment: 1 } }
            : {},
      });
      if (event) await recordEvent(tx, event);
      outcome = {
        status,
        articleId: r.articleId,
        snippets: r.snippets,
        fallback: chosen.extractionStatus === 'fallback',
        error: reason ?? undefined,
      };
    },
  });
  return outcome ?? { status: 'failed', articleId: result.articleId, snippets: 0, fallback: false };
}
