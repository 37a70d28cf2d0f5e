/** Feed management: the rows the scheduler reads. */
import type { Db } from '../lib/db/client';
import { createError } from '../lib/errors';

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
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw createError('INVALID_INPUT', `only http and https feeds are supported, got ${u.protocol}`);
  if (u.username || u.password) throw createError('INVALID_INPUT', 'feed URLs must not contain credentials');
  u.hash = '';
  return u.toString();
}

export async function addFeed(db: Db, rawUrl: string, opts: AddFeedOptions) {
  const url = normalizeFeedUrl(rawUrl);
  const existing = await db.feed.findUnique({ where: { url } });
  if (existing) throw createError('CONFLICT', `feed already exists (id ${existing.id}): ${url}`, { id: existing.id });
  return db.feed.create({ data: { url, intervalMinutes: opts.intervalMinutes, title: opts.title ?? null, nextCheckAt: new Date() } });
}

/** Finds a feed by numeric id or by URL. */
export async function findFeed(db: Db, idOrUrl: string) {
  const feed = /^\d+$/.test(idOrUrl.trim())
    ? await db.feed.findUnique({ where: { id: Number(idOrUrl) } })
    : await db.feed.findUnique({ where: { url: normalizeFeedUrl(idOrUrl) } });
  if (!feed) throw createError('NOT_FOUND', `no feed ${idOrUrl}`);
  return feed;
}

/** Removes a feed. Its articles stay searchable (their feed_id becomes NULL); its events go with it. */
export async function removeFeed(db: Db, idOrUrl: string) {
  const feed = await findFeed(db, idOrUrl);
  await db.$transaction([db.crawlEvent.deleteMany({ where: { feedId: feed.id } }), db.feed.delete({ where: { id: feed.id } })]);
  return feed;
}
