/**
 * Feed management for admins (JSON API and dashboard forms): add (the feed is fetched once and must
 * parse), pause, resume, check now, change interval, remove.
 */
import {
  admitFeed,
  checkFeedUrl,
  addSeedFeeds,
  feedListForExport,
  findFeed,
  importFeedList,
  parseThread,
  writeOpml,
  listFeedHealth,
  normalizeFeedUrl,
  pauseFeed,
  probeFeed,
  refreshFeedNow,
  removeFeed,
  resumeFeed,
  setFeedInterval,
  setFeedTitle,
  type FeedHealth,
  type FeedListImport,
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

/** The feeds an HTML page links to (rel=alternate), as absolute http(s) URLs, at most five. */
export function discoveredFeeds(pageUrl: string, hrefs: unknown): string[] {
  if (!Array.isArray(hrefs)) return [];
  const out = new Set<string>();
  for (const h of hrefs) {
    if (typeof h !== 'string') continue;
    try {
      const u = new URL(h.replace(/&amp;/g, '&').trim(), pageUrl);
      if (u.protocol === 'http:' || u.protocol === 'https:') out.add(normalizeFeedUrl(u.toString()));
    } catch {
      // an unusable href is simply not offered
    }
  }
  return [...out].slice(0, 5);
}

/** The probe's failure as a 400 that says what to do about it (and, for an HTML page, which feeds it links to). */
function probeError(e: unknown, url: string): Error {
  if (!isQuinError(e)) return e as Error;
  if (e.code === 'FETCH_BLOCKED') {
    // The hint fits the rule that refused it: only a private address is a matter of QUIN_ALLOW_PRIVATE_HOSTS.
    const hint =
      e.details?.refused === 'address'
        ? 'private, loopback and link-local addresses are refused (QUIN_ALLOW_PRIVATE_HOSTS=true allows them)'
        : e.details?.refused === 'scheme'
          ? 'a feed must be served over http or https'
          : 'not added';
    return createError('INVALID_INPUT', `${e.message}: ${hint}`, { cause: e.code });
  }
  if (e.status >= 500 || e.code.startsWith('FETCH_') || e.code.startsWith('FEED_PARSE_')) {
    const found = discoveredFeeds(url, e.details?.alternates);
    return createError('INVALID_INPUT', `not added, the feed could not be read: ${e.message}`, {
      cause: e.code,
      ...(found.length ? { found } : {}),
    });
  }
  return e;
}

export async function addCheckedFeed(deps: FeedDeps, input: AddFeedInput): Promise<FeedHealth> {
  const { config, db } = deps;
  // The one rule first (admit.ts): a refused address is not even fetched.
  const url = await checkFeedUrl(input.url, config);
  const existing = await findFeed(db, url).catch(() => null);
  if (existing)
    throw createError('CONFLICT', `this feed is already crawled, as “${existing.title ?? existing.url}”`, {
      id: existing.id,
      url: existing.url,
      title: existing.title,
    });
  const probe = await probeFeed(url, config).catch((e: unknown) => {
    throw probeError(e, url);
  });
  const feed = await admitFeed(db, config, url, {
    intervalMinutes: input.intervalMinutes ?? config.feedIntervalMinutes,
    title: input.title || probe.title,
  });
  if (probe.siteUrl && /^https?:\/\//i.test(probe.siteUrl))
    await db.feed.update({ where: { id: feed.id }, data: { siteUrl: probe.siteUrl } });
  return healthOf(deps, feed.id);
}

export type FeedAction = 'pause' | 'resume' | 'refresh';

export async function changeFeed(
  deps: FeedDeps,
  id: number,
  change: { action?: FeedAction; intervalMinutes?: number; title?: string },
): Promise<FeedHealth> {
  const { db } = deps;
  if (change.intervalMinutes !== undefined) await setFeedInterval(db, id, change.intervalMinutes);
  // An empty title goes back to the one the feed gives itself (filled in at its next check).
  if (change.title !== undefined) await setFeedTitle(db, id, change.title);
  if (change.action === 'pause') await pauseFeed(db, id);
  if (change.action === 'resume') await resumeFeed(db, id);
  if (change.action === 'refresh') await refreshFeedNow(db, id);
  return healthOf(deps, id);
}

export async function deleteFeed({ db }: FeedDeps, id: number): Promise<{ id: number; url: string }> {
  const feed = await removeFeed(db, id);
  return { id: feed.id, url: feed.url };
}

/** "Check all now": every feed that is not paused becomes due. */
export async function refreshAllFeeds({ db }: FeedDeps): Promise<number> {
  return (await db.feed.updateMany({ where: { status: { not: 'paused' } }, data: { nextCheckAt: new Date() } })).count;
}

/** Adds the feeds of an OPML file (hostile files refused with INVALID_INPUT and the reason); read in the parse thread. */
export async function importOpml({ db, config }: FeedDeps, file: Buffer): Promise<FeedListImport> {
  return importFeedList(db, config, await parseThread().parseOpml(file), { intervalMinutes: config.feedIntervalMinutes });
}

export async function exportOpml({ db }: FeedDeps): Promise<string> {
  return writeOpml(await feedListForExport(db), { title: 'Quin news feeds' });
}

/** The admin asked for the default feeds (QUIN_SEED_FEEDS's list, or the default one), added as an import is. */
export async function seedDefaultFeeds({ db, config }: FeedDeps): Promise<FeedListImport> {
  return addSeedFeeds(db, config);
}
