/**
 * What `npm start` does before the servers start (run by scripts/start.mjs through tsx): validate the
 * configuration, apply migrations, make sure the admin can sign in (a generated password when none is
 * configured) and seed the default feeds on the first start of a database when a first check reaches
 * them (crawler/feeds/seed.ts).
 */
import { seedFeedsAtStart, type SeedState } from '../../crawler';
import { getConfig } from '../../lib/config';
import { createDb } from '../../lib/db/client';
import { migrate } from '../../lib/db/migrate';
import { adminCredentials, ensureAdminPassword, pendingInitialPassword, sessionSecret } from '../../lib/web/secrets';

export interface PrepareResult {
  host: string;
  port: number;
  dataDir: string;
  database: string;
  worker: boolean;
  adminUser: string;
  adminPasswordSource: 'config' | 'generated' | 'none';
  /** Only on the start that generated it: printed at once; kept in `initialPasswordFile` until the first sign-in. */
  generatedPassword: string | null;
  /** Where the generated password is while nobody has signed in with it (null once someone has). */
  initialPasswordFile: string | null;
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
      initialPasswordFile: pendingInitialPassword(config),
      seededFeeds,
      seed,
      migrationsApplied: applied,
    };
  } finally {
    await db.$disconnect();
  }
}

/** The reset command as this start's settings need it (the same data dir). */
function resetCommand(): string {
  const dir = process.env.QUIN_DATA_DIR;
  return `${dir ? `QUIN_DATA_DIR=${/^[\w./-]+$/.test(dir) ? dir : JSON.stringify(dir)} ` : ''}npx quin admin reset-password`;
}

/**
 * What a start says about the admin password: the new one when it was just generated; until the first
 * sign-in, where the generated one is and how to make another; nothing once someone has signed in.
 */
export function adminPasswordLines(
  info: Pick<PrepareResult, 'adminUser' | 'adminPasswordSource' | 'generatedPassword' | 'initialPasswordFile'>,
): string[] {
  if (info.generatedPassword)
    return [
      `  Admin password (generated: no QUIN_ADMIN_PASSWORD_HASH is set) for user "${info.adminUser}":   ${info.generatedPassword}`,
      `  Until the first sign-in it is also kept in ${info.initialPasswordFile ?? 'the secrets folder'} (then deleted; only its hash stays).`,
      `  A new one: ${resetCommand()}`,
    ];
  if (info.initialPasswordFile)
    return [
      `  Nobody has signed in yet: the generated admin password (user "${info.adminUser}") is in ${info.initialPasswordFile}`,
      `  (deleted at the first sign-in). A new one: ${resetCommand()}`,
    ];
  if (info.adminPasswordSource === 'none') return ['  admin sign-in is disabled: no password hash is configured'];
  return [];
}
