/** Feed management: the rows the scheduler reads. */
import type { Db } from '../../lib/db/client';
import { createError } from '../../lib/errors';
import { storableText } from '../text/storable';

export interface AddFeedOptions {
  intervalMinutes: number;
  title?: string | null;
}

export function normalizeFeedUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw createError('INVALID_INPUT', `not a URL: ${JSON.stringify(raw)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw createError('INVALID_INPUT', `only http and https feeds are supported, got ${u.protocol}`);
  if (u.username || u.password) throw createError('INVALID_INPUT', 'feed URLs must not contain credentials');
  u.hash = '';
  return u.toString();
}

export async function addFeed(db: Db, rawUrl: string, opts: AddFeedOptions) {
  const url = normalizeFeedUrl(rawUrl);
  const existing = await db.feed.findUnique({ where: { url } });
  if (existing) throw createError('CONFLICT', `feed already exists (id ${existing.id}): ${url}`, { id: existing.id });
  const title = opts.title ? storableText(opts.title) : null;
  return db.feed.create({ data: { url, intervalMinutes: opts.intervalMinutes, title, nextCheckAt: new Date() } });
}

/** Finds a feed by numeric id or by URL. */
export async function findFeed(db: Db, idOrUrl: string | number) {
  const key = String(idOrUrl).trim();
  const feed = /^\d+$/.test(key)
    ? await db.feed.findUnique({ where: { id: Number(key) } })
    : await db.feed.findUnique({ where: { url: normalizeFeedUrl(key) } });
  if (!feed) throw createError('NOT_FOUND', `no feed ${idOrUrl}`);
  return feed;
}

/** Removes a feed. Its articles stay searchable (their feed_id becomes NULL); its events go with it. */
export async function removeFeed(db: Db, idOrUrl: string | number) {
  const feed = await findFeed(db, idOrUrl);
  await db.$transaction([db.crawlEvent.deleteMany({ where: { feedId: feed.id } }), db.feed.delete({ where: { id: feed.id } })]);
  return feed;
}

/** Stops checking a feed until it is resumed; it stays listed with its health. */
export async function pauseFeed(db: Db, idOrUrl: string | number) {
  const feed = await findFeed(db, idOrUrl);
  return db.feed.update({ where: { id: feed.id }, data: { status: 'paused' } });
}

/** Resumes a paused (or broken) feed and checks it at the next crawl. */
export async function resumeFeed(db: Db, idOrUrl: string | number) {
  const feed = await findFeed(db, idOrUrl);
  return db.feed.update({ where: { id: feed.id }, data: { status: 'active', nextCheckAt: new Date() } });
}

/** Makes a feed due now (the next crawl run checks it, whatever its backoff). A paused feed stays paused. */
export async function refreshFeedNow(db: Db, idOrUrl: string | number) {
  const feed = await findFeed(db, idOrUrl);
  return db.feed.update({ where: { id: feed.id }, data: { nextCheckAt: new Date() } });
}

/** Titles an admin gives a feed are at most this long. */
export const MAX_TITLE_CHARS = 300;

/**
 * Sets a feed's display name, through the same text boundary as a crawled title. An empty name goes
 * back to the title the feed gives itself (filled in at its next check).
 */
export async function setFeedTitle(db: Db, idOrUrl: string | number, title: string) {
  const feed = await findFeed(db, idOrUrl);
  return db.feed.update({ where: { id: feed.id }, data: { title: storableText(title).trim().slice(0, MAX_TITLE_CHARS) || null } });
}

export async function setFeedInterval(db: Db, idOrUrl: string | number, intervalMinutes: number) {
  if (!Number.isInteger(intervalMinutes) || intervalMinutes < 1)
    throw createError('INVALID_INPUT', `interval must be a whole number of minutes ≥ 1, got ${intervalMinutes}`);
  const feed = await findFeed(db, idOrUrl);
  return db.feed.update({ where: { id: feed.id }, data: { intervalMinutes } });
}
