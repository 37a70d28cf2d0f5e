/**
 * Adding the default feeds (lib/web/default-feeds.ts): on a first start only when a first check
 * reaches one of them, or at once when an admin asks. The outcome is recorded in app_settings so that
 * the dashboard and `npm start` can say what happened and why.
 */
import type { Config } from '../../lib/config';
import type { Db } from '../../lib/db/client';
import { errorText } from '../store/events';
import { FEEDS_SEED_SKIPPED_KEY, FEEDS_SEEDED_KEY, seedList } from '../../lib/web/default-feeds';
import { importFeedList, type FeedListImport } from './feed-list';
import { probeFeed } from './probe';

export type SeedState =
  { kind: 'seeded'; at: string } | { kind: 'skipped'; at: string; reason: string } | { kind: 'off' } | { kind: 'pending' };

export interface SeedOutcome {
  added: number;
  state: SeedState;
}

/** Resolves when `url` can be fetched and parses as a feed; rejects with the reason otherwise. */
export type FeedCheck = (url: string) => Promise<void>;

const CHECK_TIMEOUT_MS = 8000;
/** Feeds on different hosts tried at once by the first-start check: one success is enough. */
const CHECKED = 2;

export function probeCheck(config: Config): FeedCheck {
  return async (url) => void (await probeFeed(url, config, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) }));
}

export async function seedState(db: Db, config: Pick<Config, 'seedFeeds'>): Promise<SeedState> {
  const rows = await db.appSetting.findMany({ where: { key: { in: [FEEDS_SEEDED_KEY, FEEDS_SEED_SKIPPED_KEY] } } });
  const seeded = rows.find((r) => r.key === FEEDS_SEEDED_KEY);
  if (seeded) return { kind: 'seeded', at: seeded.value };
  const skipped = rows.find((r) => r.key === FEEDS_SEED_SKIPPED_KEY);
  if (skipped) {
    try {
      const v = JSON.parse(skipped.value) as { at: string; reason: string };
      return { kind: 'skipped', at: v.at, reason: v.reason };
    } catch {
      return { kind: 'skipped', at: skipped.updatedAt.toISOString(), reason: skipped.value };
    }
  }
  return config.seedFeeds === false ? { kind: 'off' } : { kind: 'pending' };
}

/** Adds the list now (an admin asked, or the check succeeded) and records it; feeds already there are kept, refused ones listed. */
export async function addSeedFeeds(
  db: Db,
  config: Pick<Config, 'seedFeeds' | 'feedIntervalMinutes' | 'allowPrivateHosts'>,
): Promise<FeedListImport> {
  const feeds = seedList(config.seedFeeds).map((f) => ({ xmlUrl: f.url, title: f.title, htmlUrl: null, category: null }));
  const result = await importFeedList(db, config, { feeds, skipped: [] }, { intervalMinutes: config.feedIntervalMinutes });
  const at = new Date().toISOString();
  await db.appSetting.upsert({ where: { key: FEEDS_SEEDED_KEY }, create: { key: FEEDS_SEEDED_KEY, value: at }, update: {} });
  await db.appSetting.deleteMany({ where: { key: FEEDS_SEED_SKIPPED_KEY } });
  return result;
}

/**
 * At start: adds the list once per database, and only when a first check reaches one of its feeds;
 * otherwise records why it did not (tried again at the next start, until it succeeds or an admin
 * adds the list).
 */
export async function seedFeedsAtStart(db: Db, config: Config, check: FeedCheck = probeCheck(config)): Promise<SeedOutcome> {
  const state = await seedState(db, config);
  if (state.kind === 'seeded' || state.kind === 'off') return { added: 0, state };
  const tried = seedList(config.seedFeeds).slice(0, CHECKED);
  const results = await Promise.allSettled(tried.map((f) => check(f.url)));
  if (results.some((r) => r.status === 'fulfilled')) {
    const { added } = await addSeedFeeds(db, config);
    return { added: added.length, state: await seedState(db, config) };
  }
  const why = results.map((r, i) => `${tried[i]!.url}: ${r.status === 'rejected' ? errorText(r.reason) : 'no answer'}`).join('; ');
  const reason = tried.length
    ? `the first check could not reach ${tried.length === 1 ? 'the first feed' : `any of the first ${tried.length} feeds`} (${why})`
    : 'the list is empty';
  const value = JSON.stringify({ at: new Date().toISOString(), reason });
  await db.appSetting.upsert({ where: { key: FEEDS_SEED_SKIPPED_KEY }, create: { key: FEEDS_SEED_SKIPPED_KEY, value }, update: { value } });
  return { added: 0, state: await seedState(db, config) };
}
