/**
 * FTS5's postings read through an fts5vocab 'instance' table (one row per token occurrence: term,
 * rowid, column, in FTS5's order) into an ImpactBuilder. Read row by row, a row cost ~3 µs in
 * better-sqlite3 (an array and a string made for each), ten times what SQLite takes to produce it:
 * at 1M snippets the accelerator's build read ~100M rows, two minutes. Instead each term's
 * occurrences come as one string, `group_concat` of `rowid × 4 + column code` in a `GROUP BY term`
 * that fts5vocab answers in its own order (no sort), and are parsed here. The builder gets the same
 * calls in the same order either way (bm25/impact-instances.test.ts holds the two reads equal).
 */
import type Database from 'better-sqlite3';
import { prepared } from '../../lib/db/prepared';
import type { ImpactBuilder } from './impact';

/**
 * The most occurrences of one term read as one string (~11 characters each; V8's longest string is
 * 2^29 − 24): beyond it — a term in tens of millions of rows, tens of millions of snippets — the
 * instances are read row by row.
 */
export const MAX_TERM_INSTANCES = 20_000_000;

/** A vocabulary table `temp.<name>` over an FTS5 table; its columns' ids (pragma order) by name. */
export interface InstanceSource {
  /** The fts5vocab 'instance' table, in the temp schema. */
  vocab: string;
  /** The fts5vocab 'row' table over the same FTS5 table (term, rows, occurrences): the longest list, before it is read. */
  rows: string;
  columns: ReadonlyMap<string, number>;
}

/** Adds every instance to `builder`; false as soon as the builder cannot take one (then nothing of it is usable). */
export function addInstances(db: Database.Database, src: InstanceSource, builder: ImpactBuilder, maxPerTerm = MAX_TERM_INSTANCES): boolean {
  const longest = (prepared(db, `SELECT max(cnt) FROM temp.${src.rows}`).pluck().get() as number | null) ?? 0;
  return longest > maxPerTerm ? addRowByRow(db, src, builder) : addByTerm(db, src, builder);
}

/** A column's code in the concatenated list: its id + 1 (0: a column the builder does not know). */
function columnCode(columns: ReadonlyMap<string, number>): string {
  const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
  const cases = [...columns].filter(([, id]) => id === 0 || id === 1).map(([name, id]) => `WHEN ${quote(name)} THEN ${id + 1}`);
  return cases.length ? `CASE col ${cases.join(' ')} ELSE 0 END` : '0';
}

function addByTerm(db: Database.Database, src: InstanceSource, builder: ImpactBuilder): boolean {
  const sql = `SELECT term, group_concat(doc * 4 + ${columnCode(src.columns)}) FROM temp.${src.vocab} GROUP BY term`;
  for (const [term, list] of prepared(db, sql).raw().iterate() as Iterable<[string, string]>)
    if (!addList(builder, term, list)) return false;
  return true;
}

/** One term's instances, "4r+c,4r+c,…" (rowids may be negative), in order. */
function addList(builder: ImpactBuilder, term: string, list: string): boolean {
  let value = 0;
  let sign = 1;
  for (let i = 0; i <= list.length; i++) {
    const c = i < list.length ? list.charCodeAt(i) : 44;
    if (c === 45) sign = -1;
    else if (c !== 44) value = value * 10 + (c - 48);
    else {
      const v = sign * value;
      const rowid = Math.floor(v / 4);
      if (!builder.add(term, rowid, v - rowid * 4 - 1)) return false;
      value = 0;
      sign = 1;
    }
  }
  return true;
}

function addRowByRow(db: Database.Database, src: InstanceSource, builder: ImpactBuilder): boolean {
  const it = db.prepare(`SELECT term, doc, col FROM temp.${src.vocab}`).raw().iterate() as Iterable<[string, number, string]>;
  for (const [term, doc, col] of it) if (!builder.add(term, doc, src.columns.get(col) ?? -1)) return false;
  return true;
}
