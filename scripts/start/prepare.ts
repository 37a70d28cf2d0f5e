/**
 * What `npm start` does before the servers start (run by scripts/start.mjs through tsx): validate the
 * configuration, apply migrations, make sure the admin can sign in (a one-time generated password
 * when none is configured) and seed the default feeds on the first start of a database.
 */
import { addFeed } from '../../crawler';
import { getConfig, type Config } from '../../lib/config';
import { createDb, type Db } from '../../lib/db/client';
import { migrate } from '../../lib/db/migrate';
import { isQuinError } from '../../lib/errors';
import { DEFAULT_FEEDS, FEEDS_SEEDED_KEY } from '../../lib/web/default-feeds';
import { adminCredentials, ensureAdminPassword, sessionSecret } from '../../lib/web/secrets';

export interface PrepareResult {
  host: string;
  port: number;
  dataDir: string;
  database: string;
  worker: boolean;
  adminUser: string;
  adminPasswordSource: 'config' | 'generated' | 'none';
  /** Only on the start that generated it: print once, it is stored hashed. */
  generatedPassword: string | null;
  seededFeeds: number;
  migrationsApplied: string[];
}

export async function seedFeedsOnce(db: Db, config: Pick<Config, 'seedFeeds' | 'feedIntervalMinutes'>): Promise<number> {
  if (config.seedFeeds === false) return 0;
  if (await db.appSetting.findUnique({ where: { key: FEEDS_SEEDED_KEY } })) return 0;
  const list = config.seedFeeds === true ? DEFAULT_FEEDS : config.seedFeeds.map((url) => ({ url, title: null }));
  let added = 0;
  for (const f of list) {
    try {
      await addFeed(db, f.url, { intervalMinutes: config.feedIntervalMinutes, title: f.title });
      added++;
    } catch (e) {
      if (!isQuinError(e, 'CONFLICT')) throw e;
    }
  }
  // Recorded once: feeds an admin removes later do not come back at the next start.
  await db.appSetting.upsert({
    where: { key: FEEDS_SEEDED_KEY },
    create: { key: FEEDS_SEEDED_KEY, value: new Date().toISOString() },
    update: {},
  });
  return added;
}

export async function prepare(): Promise<PrepareResult> {
  const config = getConfig();
  const { applied } = await migrate(config);
  sessionSecret(config);
  const generatedPassword = await ensureAdminPassword(config);
  const db = createDb(config);
  try {
    const seededFeeds = await seedFeedsOnce(db, config);
    return {
      host: config.host,
      port: config.port,
      dataDir: config.dataDir,
      database: config.databaseProvider === 'sqlite' ? config.databaseUrlResolved : 'PostgreSQL (DATABASE_URL)',
      worker: config.worker,
      adminUser: config.adminUser,
      adminPasswordSource: adminCredentials(config).source,
      generatedPassword,
      seededFeeds,
      migrationsApplied: applied,
    };
  } finally {
    await db.$disconnect();
  }
}
