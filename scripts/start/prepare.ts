/**
 * What `npm start` does before the servers start (run by scripts/start.mjs through tsx): validate the
 * configuration, apply migrations, make sure the admin can sign in (a one-time generated password
 * when none is configured) and seed the default feeds on the first start of a database when a first check reaches them
 * (crawler/seed-feeds.ts).
 */
import { seedFeedsAtStart, type SeedState } from '../../crawler';
import { getConfig } from '../../lib/config';
import { createDb } from '../../lib/db/client';
import { migrate } from '../../lib/db/migrate';
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
  /** What became of the default feeds (skipped: no feed could be reached, with the reason). */
  seed: SeedState;
  migrationsApplied: string[];
}

export async function prepare(): Promise<PrepareResult> {
  const config = getConfig();
  const { applied } = await migrate(config);
  sessionSecret(config);
  const generatedPassword = await ensureAdminPassword(config);
  const db = createDb(config);
  try {
    const { added: seededFeeds, state: seed } = await seedFeedsAtStart(db, config);
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
      seed,
      migrationsApplied: applied,
    };
  } finally {
    await db.$disconnect();
  }
}
