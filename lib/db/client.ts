/**
 * The database client: Prisma over better-sqlite3 (embedded default) or over pg (PostgreSQL), chosen
 * by the database URL. Both generated clients come from the same schema, so they share one API; the
 * SQLite client's types stand for both.
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import Database from 'better-sqlite3';
import type { Config } from '../config';
import { getConfig, sqlitePath } from '../config';
import { PrismaClient as SqliteClient } from './generated/sqlite/client';
import { PrismaClient as PostgresClient } from './generated/postgres/client';
import { migrate } from './migrate';

export type Db = SqliteClient;
export type { Prisma } from './generated/sqlite/client';
export type * as Models from './generated/sqlite/models';

type DbConfig = Pick<Config, 'databaseProvider' | 'databaseUrlResolved'>;

/** How long a SQLite statement waits for another connection's write lock before SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 15_000;

/** Marks a SQLite client, under a registry symbol: a client made by another bundle's copy of this module is recognised too. */
const SQLITE = Symbol.for('quin.db.sqlite');

export function isSqliteDb(db: Db): boolean {
  return (db as unknown as Record<symbol, unknown>)[SQLITE] === true;
}

/** A SQLite client's file, for its direct reader. */
const SQLITE_FILE = Symbol.for('quin.db.sqlite.file');
const readers = new WeakMap<Db, Database.Database>();

/**
 * A second, direct connection to a SQLite client's file, for the search's hot reads (~1,000
 * candidate rows a query): the same statement through Prisma's adapter builds a result set and then
 * objects from it, about half again the time of better-sqlite3's own rows. Opened on first use, closed
 * with the client; null for PostgreSQL. Reads only: every write goes through the client.
 */
export function sqliteReader(db: Db): Database.Database | null {
  const file = (db as unknown as Record<symbol, unknown>)[SQLITE_FILE];
  if (typeof file !== 'string') return null;
  let reader = readers.get(db);
  if (!reader) {
    reader = new Database(file, { fileMustExist: true });
    reader.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    readers.set(db, reader);
  }
  return reader;
}

function closeReader(db: Db): void {
  readers.get(db)?.close();
  readers.delete(db);
}

export function createDb(config: DbConfig): Db {
  if (config.databaseProvider === 'sqlite') {
    // busy timeout: a second process (worker, CLI) waits for the write lock instead of failing.
    const adapter = new PrismaBetterSqlite3({ url: sqlitePath(config), timeout: SQLITE_BUSY_TIMEOUT_MS });
    const db = new SqliteClient({ adapter });
    Object.defineProperty(db, SQLITE, { value: true });
    Object.defineProperty(db, SQLITE_FILE, { value: sqlitePath(config) });
    const disconnect = db.$disconnect.bind(db);
    Object.defineProperty(db, '$disconnect', {
      value: async () => {
        closeReader(db);
        await disconnect();
      },
    });
    return db;
  }
  const adapter = new PrismaPg({ connectionString: config.databaseUrlResolved, max: 10 });
  return new PostgresClient({ adapter }) as unknown as Db;
}

let shared: { db: Db; key: string } | undefined;

/** The process-wide client, created on first use after applying pending migrations. */
export async function getDb(config: DbConfig = getConfig()): Promise<Db> {
  const key = config.databaseUrlResolved;
  if (shared && shared.key === key) return shared.db;
  await migrate(config);
  const db = createDb(config);
  if (config.databaseProvider === 'sqlite') {
    // WAL lets readers (the web server) run beside the writer (the crawler/indexer worker).
    await db.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    await db.$executeRawUnsafe('PRAGMA foreign_keys = ON');
  }
  if (shared) await shared.db.$disconnect();
  shared = { db, key };
  return db;
}

export async function closeDb(): Promise<void> {
  if (shared) {
    const { db } = shared;
    shared = undefined;
    await db.$disconnect();
  }
}
