/**
 * Applies the plain-SQL migrations in prisma/migrations/<provider>/ in name order, each in its own
 * transaction, and records what was applied (name + checksum) in `_quin_migrations`. A migration
 * whose file changed after it was applied is an error, not silently skipped.
 * (Prisma's own migration engine is a native download that cannot be had offline.)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config';
import { sqlitePath } from '../config';
import { createError } from '../errors';
import { createLogger } from '../log';
import { projectRoot } from '../paths';
import { checkSqliteFile } from './sqlite-file';

const log = createLogger('migrate');

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

export function listMigrations(provider: 'sqlite' | 'postgres'): Migration[] {
  const dir = path.join(projectRoot(), 'prisma', 'migrations', provider);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => {
      const sql = fs.readFileSync(path.join(dir, f), 'utf8');
      return { name: f.replace(/\.sql$/, ''), sql, checksum: crypto.createHash('sha256').update(sql).digest('hex') };
    });
}

function checkRecorded(m: Migration, recorded: Map<string, string>): boolean {
  const sum = recorded.get(m.name);
  if (sum === undefined) return false;
  if (sum !== m.checksum) {
    throw createError('MIGRATION_FAILED', `migration ${m.name} was changed after it was applied (checksum mismatch)`);
  }
  return true;
}

export function migrateSqlite(file: string): MigrateResult {
  // What is wrong with the place, in words (not "unable to open database file" or "EEXIST").
  checkSqliteFile(file);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 10000');
    db.exec(`CREATE TABLE IF NOT EXISTS _quin_migrations (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
    const result: MigrateResult = { applied: [], alreadyApplied: [] };
    for (const m of listMigrations('sqlite')) {
      // BEGIN IMMEDIATE takes the write lock first, so two processes starting at once serialise here.
      const apply = db.transaction(() => {
        const rows = db.prepare('SELECT name, checksum FROM _quin_migrations').all() as { name: string; checksum: string }[];
        if (checkRecorded(m, new Map(rows.map((r) => [r.name, r.checksum])))) return false;
        db.exec(m.sql);
        db.prepare('INSERT INTO _quin_migrations (name, checksum, applied_at) VALUES (?, ?, ?)').run(
          m.name,
          m.checksum,
          new Date().toISOString(),
        );
        return true;
      });
      try {
        (apply.immediate() ? result.applied : result.alreadyApplied).push(m.name);
      } catch (e) {
        if ((e as { code?: string }).code === 'MIGRATION_FAILED') throw e;
        throw createError('MIGRATION_FAILED', `migration ${m.name} failed: ${(e as Error).message}`, undefined, e);
      }
    }
    return result;
  } finally {
    db.close();
  }
}

export async function migratePostgres(url: string): Promise<MigrateResult> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (e) {
    throw createError('DB_UNAVAILABLE', `cannot connect to PostgreSQL: ${(e as Error).message}`, undefined, e);
  }
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS _quin_migrations (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const result: MigrateResult = { applied: [], alreadyApplied: [] };
    for (const m of listMigrations('postgres')) {
      await client.query('BEGIN');
      try {
        // One migrator at a time across processes; released at COMMIT/ROLLBACK.
        await client.query('SELECT pg_advisory_xact_lock(7242013)');
        const { rows } = await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM _quin_migrations');
        if (checkRecorded(m, new Map(rows.map((r) => [r.name, r.checksum])))) {
          await client.query('COMMIT');
          result.alreadyApplied.push(m.name);
          continue;
        }
        await client.query(m.sql);
        await client.query('INSERT INTO _quin_migrations (name, checksum) VALUES ($1, $2)', [m.name, m.checksum]);
        await client.query('COMMIT');
        result.applied.push(m.name);
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        if ((e as { code?: string }).code === 'MIGRATION_FAILED') throw e;
        throw createError('MIGRATION_FAILED', `migration ${m.name} failed: ${(e as Error).message}`, undefined, e);
      }
    }
    return result;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function migrate(config: Pick<Config, 'databaseProvider' | 'databaseUrlResolved'>): Promise<MigrateResult> {
  const result =
    config.databaseProvider === 'sqlite' ? migrateSqlite(sqlitePath(config)) : await migratePostgres(config.databaseUrlResolved);
  if (result.applied.length) log.info('applied migrations', { applied: result.applied.join(',') });
  return result;
}
