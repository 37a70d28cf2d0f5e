import type Database from 'better-sqlite3';

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/**
 * A statement prepared once per connection and kept with it. Preparing costs SQLite a parse and
 * a plan each time (over an fts5vocab table, a connection to the FTS5 table too), which on the
 * request path — a search's candidate read, the first search after a crawl's write — was paid on
 * every call. better-sqlite3 prepares with sqlite3_prepare_v3, so a kept statement is planned again
 * by SQLite itself after a schema change; a table dropped since fails the statement's next run.
 */
export function prepared(db: Database.Database, sql: string): Database.Statement {
  let mine = statements.get(db);
  if (!mine) statements.set(db, (mine = new Map()));
  let stmt = mine.get(sql);
  if (!stmt) mine.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}
