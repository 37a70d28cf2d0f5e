/**
 * A fresh, migrated database for one test file: a SQLite file in a temporary folder, or (when
 * QUIN_TEST_DB=postgres) a new database on the PostgreSQL server at QUIN_TEST_PG_URL, dropped again
 * at cleanup. Tests that use it end in `.db.test.ts`; the test runner runs them against both.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig, type Config, type LoadConfigOptions, type Tuning } from '../lib/config';
import { createDb, type Db } from '../lib/db/client';
import { migrate } from '../lib/db/migrate';

/** Settings to override, and code constants to vary (`tuning`). */
export type TestOverrides = LoadConfigOptions['overrides'] & { tuning?: Tuning };

export interface TestDb {
  db: Db;
  config: Config;
  provider: 'sqlite' | 'postgres';
  dataDir: string;
  cleanup(): Promise<void>;
}

export const testProvider = (): 'sqlite' | 'postgres' => (process.env.QUIN_TEST_DB === 'postgres' ? 'postgres' : 'sqlite');

export function tempDir(prefix = 'quin-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function pgAdminUrl(): string {
  const url = process.env.QUIN_TEST_PG_URL;
  if (!url) throw new Error('QUIN_TEST_DB=postgres needs QUIN_TEST_PG_URL (scripts/test.mjs starts a server and sets it)');
  return url;
}

/** Overrides for loadConfig, e.g. crawler timeouts; `tuning` varies code constants (lib/config.ts Tuning). */
export async function createTestDb(overrides: TestOverrides = {}): Promise<TestDb> {
  const { tuning, ...settings } = overrides;
  const dataDir = tempDir();
  const provider = testProvider();
  let dbName: string | undefined;
  let databaseUrl: string | undefined;
  if (provider === 'postgres') {
    dbName = `quin_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: pgAdminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(pgAdminUrl());
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const config = loadConfig({
    env: {},
    configFile: null,
    overrides: { dataDir, databaseUrl, cacheDir: path.join(dataDir, 'cache'), ...settings },
    tuning,
  });
  await migrate(config);
  const db = createDb(config);
  return {
    db,
    config,
    provider,
    dataDir,
    async cleanup() {
      await db.$disconnect();
      if (dbName) {
        const admin = new pg.Client({ connectionString: pgAdminUrl() });
        await admin.connect();
        // After a large import an autovacuum worker may be in the database; FORCE cannot end it
        // without superuser rights, and it finishes (or yields) within seconds: retry.
        for (let attempt = 1; ; attempt++) {
          try {
            await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
            break;
          } catch (e) {
            if (attempt >= 20 || !/pg_signal_backend|being accessed by other users/.test((e as Error).message)) throw e;
            await new Promise((r) => setTimeout(r, 500));
          }
        }
        await admin.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
