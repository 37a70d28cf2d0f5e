/**
 * Feed management for admins (JSON API and dashboard forms): add (the feed is fetched once and must
 * parse), pause, resume, check now, change interval, remove.
 */
import {
  addFeed,
  findFeed,
  listFeedHealth,
  normalizeFeedUrl,
  pauseFeed,
  probeFeed,
  refreshFeedNow,
  removeFeed,
  resumeFeed,
  setFeedInterval,
  type FeedHealth,
} from '../../crawler';
import type { Config } from '../../lib/config';
import type { Db } from '../../lib/db/client';
import { createError, isQuinError } from '../../lib/errors';

/** What these functions use (the web process passes its services; tests pass a test database). */
export interface FeedDeps {
  db: Db;
  config: Config;
}

export async function listFeeds({ db }: FeedDeps): Promise<FeedHealth[]> {
  return listFeedHealth(db);
}

async function healthOf(deps: FeedDeps, id: number): Promise<FeedHealth> {
  const feed = (await listFeeds(deps)).find((f) => f.id === id);
  if (!feed) throw createError('NOT_FOUND', `no feed ${id}`);
  return feed;
}

export interface AddFeedInput {
  url: string;
  intervalMinutes?: number;
  title?: string;
}

/** The probe's failure as a 400 that says what to do about it. */
function probeError(e: unknown): Error {
  if (!isQuinError(e)) return e as Error;
  if (e.code === 'FETCH_BLOCKED') {
    return createError('INVALID_INPUT', `${e.message}: private, loopback and link-local addresses are refused (QUIN_ALLOW_PRIVATE_HOSTS=true allows them)`, { cause: e.code });
  }
  if (e.status >= 500 || e.code.startsWith('FETCH_') || e.code === 'FEED_PARSE_ERROR') {
    return createError('INVALID_INPUT', `not added, the feed could not be read: ${e.message}`, { cause: e.code });
  }
  return e;
}

export async function addCheckedFeed(deps: FeedDeps, input: AddFeedInput): Promise<FeedHealth> {
  const { config, db } = deps;
  const url = normalizeFeedUrl(input.url);
  const existing = await findFeed(db, url).catch(() => null);
  if (existing) throw createError('CONFLICT', `this feed is already crawled (id ${existing.id})`, { id: existing.id });
  const probe = await probeFeed(url, config).catch((e: unknown) => {
    throw probeError(e);
  });
  const feed = await addFeed(db, url, { intervalMinutes: input.intervalMinutes ?? config.feedIntervalMinutes, title: input.title || probe.title });
  return healthOf(deps, feed.id);
}

export type FeedAction = 'pause' | 'resume' | 'refresh';

export async function changeFeed(deps: FeedDeps, id: number, change: { action?: FeedAction; intervalMinutes?: number }): Promise<FeedHealth> {
  const { db } = deps;
  if (change.intervalMinutes !== undefined) await setFeedInterval(db, id, change.intervalMinutes);
  if (change.action === 'pause') await pauseFeed(db, id);
  if (change.action === 'resume') await resumeFeed(db, id);
  if (change.action === 'refresh') await refreshFeedNow(db, id);
  return healthOf(deps, id);
}

export async function deleteFeed({ db }: FeedDeps, id: number): Promise<{ id: number; url: string }> {
  const feed = await removeFeed(db, id);
  return { id: feed.id, url: feed.url };
}
