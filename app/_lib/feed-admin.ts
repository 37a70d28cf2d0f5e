/**
 * Feed management for admins (JSON API and dashboard forms): add (the feed is fetched once and must
 * parse), pause, resume, check now, change interval, remove.
 */
import { addFeed, findFeed, listFeedHealth, removeFeed, type FeedHealth } from '../../crawler';
import { createError } from '../../lib/errors';
import { services } from './services';

export async function listFeeds(): Promise<FeedHealth[]> {
  return listFeedHealth((await services()).db);
}

async function healthOf(id: number): Promise<FeedHealth> {
  const feed = (await listFeeds()).find((f) => f.id === id);
  if (!feed) throw createError('NOT_FOUND', `no feed ${id}`);
  return feed;
}

export interface AddFeedInput {
  url: string;
  intervalMinutes?: number;
  title?: string;
}

export async function addCheckedFeed(input: AddFeedInput): Promise<FeedHealth> {
  const { config, db } = await services();
  const feed = await addFeed(db, input.url, { intervalMinutes: input.intervalMinutes ?? config.feedIntervalMinutes, title: input.title ?? null });
  return healthOf(feed.id);
}

export type FeedAction = 'pause' | 'resume' | 'refresh';

export async function changeFeed(id: number, change: { action?: FeedAction; intervalMinutes?: number }): Promise<FeedHealth> {
  const { db } = await services();
  const feed = await findFeed(db, String(id));
  const data: Record<string, unknown> = {};
  if (change.intervalMinutes !== undefined) data.intervalMinutes = change.intervalMinutes;
  if (change.action === 'pause') data.status = 'paused';
  if (change.action === 'resume') Object.assign(data, { status: feed.consecutiveFailures > 0 ? 'active' : 'active', nextCheckAt: new Date() });
  if (change.action === 'refresh') data.nextCheckAt = new Date();
  await db.feed.update({ where: { id }, data });
  return healthOf(id);
}

export async function deleteFeed(id: number): Promise<{ id: number; url: string }> {
  const feed = await removeFeed((await services()).db, String(id));
  return { id: feed.id, url: feed.url };
}
