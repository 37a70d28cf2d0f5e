/**
 * The SQLite side of the BM25 accelerator (bm25/impact.ts): reading FTS5's postings, the
 * fingerprint that says whether a saved copy still matches the FTS5 index, the query tokenizer and
 * the file format. The postings are read through FTS5's public interfaces only — the fts5vocab
 * 'instance' table and the FTS5 table's own rowids — never its private %_data records; the live
 * difference (readLiveDelta) finds new rowids in the %_docsize table, one row per document, because
 * a rowid range over an external-content FTS5 table scans every row.
 *
 * Freshness is checked, not trusted: the fingerprint is the table `bm25_generation` (a random epoch
 * and a counter that every write to the FTS5 index bumps in the same transaction: triggers on
 * "snippets" in the database, migration 0007; Fts5Index.apply in the FTS5 file), read in the same
 * transaction as the postings. A query uses the copy only when the live fingerprint equals the
 * copy's; otherwise FTS5 answers (the same results, slower) until `quin index` has rebuilt the copy.
 * Without that table there is no fingerprint and FTS5 always answers. The file is written
 * atomically, so a kill -9 leaves the old copy or the new one.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { prepared } from '../../lib/db/prepared';
import { writeFileAtomic } from '../files';
import { ImpactBuilder, ImpactIndex, mergeImpact, type ImpactArrays } from './impact';
import { compressPostings, inflatePostings, type ImpactBlocks } from './impact-blocks';
import type { LiveDelta } from './impact-live';
import { rewriteRows } from './impact-rewrite';
import { addInstances } from './impact-instances';

/** Version 2: postings in blocks (version 1 files, flat arrays, are rebuilt by the next `quin index`). */
const MAGIC = 'QUINBM25IMPACT2\n';

export const GENERATION_TABLE = 'bm25_generation';

/** SQL that creates the generation row (the FTS5 file's own copy; the database's comes from migration 0007). */
export const GENERATION_DDL = `CREATE TABLE IF NOT EXISTS ${GENERATION_TABLE} (id INTEGER PRIMARY KEY CHECK (id = 1), epoch TEXT NOT NULL, value INTEGER NOT NULL);
INSERT OR IGNORE INTO ${GENERATION_TABLE} (id, epoch, value) VALUES (1, lower(hex(randomblob(8))), 0);`;

export const BUMP_GENERATION = `UPDATE ${GENERATION_TABLE} SET value = value + 1 WHERE id = 1`;

/**
 * A new epoch: the row's content changed under an id the copy may hold (an in-place update), so no
 * copy of an earlier generation can be brought up to date by ids alone (incremental updates need
 * the same epoch, see updateImpact).
 */
export const RENEW_EPOCH = `UPDATE ${GENERATION_TABLE} SET epoch = lower(hex(randomblob(8))), value = value + 1 WHERE id = 1`;

const epochOf = (fingerprint: string) => fingerprint.slice(0, fingerprint.lastIndexOf(':'));
const generationOf = (fingerprint: string) => Number(fingerprint.slice(fingerprint.lastIndexOf(':') + 1));

const hasTable = (db: Database.Database, name: string) =>
  prepared(db, `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;

/** A reader of the live fingerprint (epoch:counter), or null when the database has no generation table. */
export function fingerprintReader(db: Database.Database): (() => string | null) | null {
  if (!hasTable(db, GENERATION_TABLE)) return null;
  const stmt = prepared(db, `SELECT epoch || ':' || value FROM ${GENERATION_TABLE} WHERE id = 1`).pluck();
  return () => (stmt.get() as string | undefined) ?? null;
}

export interface BuiltImpact {
  fingerprint: string;
  arrays: ImpactArrays;
}

/**
 * Reads the postings of the FTS5 table in one read transaction (a consistent snapshot); null when
 * the index holds something the copy cannot represent (then FTS5 keeps answering).
 */
export function readImpact(db: Database.Database, table = 'snippets_fts'): BuiltImpact | null {
  const live = fingerprintReader(db);
  if (!live) return null;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.quin_impact_instances USING fts5vocab(main, '${table}', 'instance')`);
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.quin_impact_terms USING fts5vocab(main, '${table}', 'row')`);
  return db.transaction((): BuiltImpact | null => {
    const fingerprint = live();
    if (!fingerprint) return null;
    // Every row, tokens or not (external content: FTS5 reads the rowids from the content table).
    const builder = new ImpactBuilder(db.prepare(`SELECT rowid FROM "${table}"`).pluck().iterate() as Iterable<number>);
    const columns = new Map<string, number>();
    db.prepare(`SELECT cid, name FROM pragma_table_info(?)`)
      .raw()
      .all(table)
      .forEach((r) => columns.set(String((r as unknown[])[1]), Number((r as unknown[])[0])));
    if (!addInstances(db, { vocab: 'quin_impact_instances', rows: 'quin_impact_terms', columns }, builder)) return null;
    return { fingerprint, arrays: builder.finish() };
  })();
}

/** Share of the rows that may change for an update to go by the difference (beyond it a full build is as quick). */
export const INCREMENTAL_MAX_SHARE = 0.25;

/**
 * Brings a saved copy up to date by the difference: rows are immutable under an epoch (a changed
 * article's snippets get new ids; an in-place update renews the epoch), so the rows added since are
 * the live rowids the copy lacks and the rows removed are those it holds that are gone. The new rows'
 * postings come from FTS5's own tokenizer (a temporary FTS5 table with the same tokenizer, read
 * through fts5vocab as the full build reads the index), so the result equals a full build. Written
 * into the copy's blocks (bm25/impact-rewrite.ts) when the new rows are above the copy's last, else
 * merged through the flat arrays. Reads the fingerprint, the rowids and the new rows in one read
 * transaction. Null when the copy is of another epoch, the change is too large, or the rows cannot
 * be represented: build from scratch. (SQLite's content mode goes by rewriteImpact, which finds the
 * removed rows in their log; this is the FTS5 file's way, and the fallback.)
 */
export function updateImpact(
  db: Database.Database,
  saved: { fingerprint: string; blocks: ImpactBlocks },
  tokenizer: string,
  table = 'snippets_fts',
): { fingerprint: string; blocks: ImpactBlocks; added: number; removed: number } | null {
  const live = fingerprintReader(db);
  if (!live) return null;
  const copyIds = saved.blocks.docIds;
  const snapshot = db.transaction(() => {
    const fingerprint = live();
    if (!fingerprint || epochOf(fingerprint) !== epochOf(saved.fingerprint)) return null;
    const rowids = db.prepare(`SELECT rowid FROM "${table}"`).pluck().all() as number[];
    const had = new Set(copyIds);
    const now = new Set(rowids);
    const added = rowids.filter((id) => !had.has(id)).sort((a, b) => a - b);
    const removed = new Set([...copyIds].filter((id) => !now.has(id)));
    if (added.length + removed.size > Math.max(100, INCREMENTAL_MAX_SHARE * rowids.length)) return null;
    const read = db.prepare(`SELECT rowid AS id, title, text FROM "${table}" WHERE rowid = ?`);
    const rows = added.map((id) => read.get(id) as { id: number; title: string | null; text: string | null });
    return { fingerprint, rows, removed };
  })();
  if (!snapshot) return null;
  const add = tokenizeRows(db, snapshot.rows, tokenizer);
  if (!add) return null;
  const mask = Uint8Array.from(copyIds, (id) => (snapshot.removed.has(id) ? 1 : 0));
  const blocks = rewriteRows(saved.blocks, mask, add) ?? mergedBlocks(saved.blocks, snapshot.removed, add);
  return blocks && { fingerprint: snapshot.fingerprint, blocks, added: snapshot.rows.length, removed: snapshot.removed.size };
}

/** The copy less `removed` (rowids) with `add` merged in through the flat arrays, for rows added anywhere. */
function mergedBlocks(bl: ImpactBlocks, removed: ReadonlySet<number>, add: ImpactArrays): ImpactBlocks | null {
  const arrays = mergeImpact(inflatePostings(bl), removed, add);
  return arrays && compressPostings(arrays);
}

/**
 * The indexer's update for the crawler's writes (SQLite, content mode): the rows added since the saved
 * copy and the rows removed, as the live difference reads them (readLiveDelta: the removals from
 * their log), written into the copy's blocks (bm25/impact-rewrite.ts) instead of the whole copy being
 * inflated, merged and compressed again (updateImpact: ~17 s at 1M on this machine). Null when the
 * copy is of another epoch, more than a quarter of the rows changed, or a row was added below the
 * copy's last (the caller goes by updateImpact or a full build).
 */
export function rewriteImpact(
  db: Database.Database,
  saved: { fingerprint: string; blocks: ImpactBlocks },
  tokenizer: string,
): { fingerprint: string; blocks: ImpactBlocks; added: number; removed: number } | null {
  const copy = { fingerprint: saved.fingerprint, docIds: saved.blocks.docIds };
  const maxChanged = Math.max(100, Math.floor(INCREMENTAL_MAX_SHARE * saved.blocks.docIds.length));
  const delta = readLiveDelta(db, copy, tokenizer, { maxAdded: maxChanged });
  if (!delta) return null;
  let removed = 0;
  for (const r of delta.removed ?? []) removed += r;
  const added = delta.added.docIds.length;
  if (added + removed > maxChanged) return null;
  const blocks = rewriteRows(saved.blocks, delta.removed, delta.added);
  return blocks && { fingerprint: delta.fingerprint, blocks, added, removed };
}

/**
 * Rows a serving copy takes in by the difference before FTS5 answers instead (bm25/impact-live.ts):
 * their postings are read on the request path, ~0.2 ms a row. A crawl adds far fewer between two
 * index runs; a large import waits for the indexer.
 */
export const LIVE_MAX_ADDED = 20_000;

export interface LiveDeltaOptions {
  /** The difference read for an earlier generation of the same copy: only the rows added after it are tokenized. */
  since?: LiveDelta | null;
  maxAdded?: number;
  table?: string;
}

/**
 * What changed in the live index since a copy of an earlier generation of its epoch, for
 * bm25/impact-live.ts: the rows added (rowids above the copy's last: AUTOINCREMENT never reuses one)
 * with their postings, and the copy's rows removed — from their log when the generation counter shows
 * it complete (removalLog), else found when the live row count says some were (from the log when
 * it accounts for them, else a read of the rowids, ~0.3 s at 1M). `since`: the difference read for an
 * earlier generation of the same copy, so that only the rows added after it are tokenized (FTS5's
 * tokenizer through a temporary table, ~0.2 ms a row). Read in one read transaction. Null when the copy is of another
 * epoch, more than `maxAdded` rows were added, or a row cannot be represented (FTS5 answers).
 */
export function readLiveDelta(
  db: Database.Database,
  copy: { fingerprint: string; docIds: Int32Array },
  tokenizer: string,
  { since = null, maxAdded = LIVE_MAX_ADDED, table = 'snippets_fts' }: LiveDeltaOptions = {},
): LiveDelta | null {
  const live = fingerprintReader(db);
  if (!live) return null;
  const had = since?.added.docIds ?? new Int32Array(0);
  const lastOf = (ids: Int32Array) => (ids.length ? ids[ids.length - 1]! : 0);
  const last = Math.max(lastOf(copy.docIds), lastOf(had));
  let removedBefore = 0;
  for (const r of since?.removed ?? []) removedBefore += r;
  const snapshot = db.transaction(() => {
    const fingerprint = live();
    if (!fingerprint || epochOf(fingerprint) !== epochOf(copy.fingerprint)) return null;
    // The new rowids from the row sizes' table: a rowid range over an external-content FTS5 table
    // scans every row (0.9 s at 1M); a lookup by rowid does not.
    const ids = prepared(db, `SELECT rowid FROM "${table}_docsize" WHERE rowid > ? ORDER BY rowid LIMIT ?`)
      .pluck()
      .all(last, maxAdded + 1) as number[];
    if (ids.length + had.length > maxAdded) return null;
    const read = prepared(db, `SELECT rowid AS id, title, text FROM "${table}" WHERE rowid = ?`);
    const rows = ids.map((id) => read.get(id) as { id: number; title: string | null; text: string | null });
    const log = removalLog(db, copy, had);
    // The log accounts for every change: nothing needs counting (removalLog says why this holds).
    const generations = generationOf(fingerprint) - generationOf(copy.fingerprint);
    if (log && log.unplaced === 0 && ids.length + had.length + log.addedBetween + log.entries === generations) {
      // The copy's rows removed before the earlier difference stay removed: as many now means the same
      // ones, and its mask is carried over (a new one costs the live copy its statistics again).
      const unchanged = log.inCopy.length === removedBefore && log.gone.size === 0;
      return { fingerprint, rows, gone: unchanged ? null : log.removed() };
    }
    // The log does not account for every change (no log, or some of it let go): the rows are counted.
    const count = db.prepare(`SELECT count(*) FROM "${table}_docsize"`).pluck().get() as number;
    // Unchanged count: nothing removed since the earlier difference (its removals carried over).
    if (count === copy.docIds.length - removedBefore + had.length + rows.length) return { fingerprint, rows, gone: null };
    // The log holds every removal the live count shows: the copy's and the added rows' that are gone.
    const stillLive = count - rows.length;
    if (log && stillLive === copy.docIds.length - log.inCopy.length + had.length - log.gone.size)
      return { fingerprint, rows, gone: log.removed() };
    // All at once: iterating 1M rowids one by one took three times as long (~1 s).
    const liveIds = db.prepare(`SELECT rowid FROM "${table}_docsize" WHERE rowid <= ? ORDER BY rowid`).pluck().all(last) as number[];
    const gone = goneRows(liveIds, [copy.docIds, had]);
    return gone && { fingerprint, rows, gone };
  })();
  if (!snapshot) return null;
  const fresh = tokenizeRows(db, snapshot.rows, tokenizer);
  if (!fresh) return null;
  const [removed, removedAdded] = snapshot.gone ?? [since?.removed ?? null, new Set<number>()];
  const added = since ? mergeImpact(since.added, removedAdded, fresh) : fresh;
  return added && { fingerprint: snapshot.fingerprint, added, removed: removed?.includes(1) ? removed : null };
}

/** The log of removed rows (migration 0010; SQLite, content mode). */
const REMOVED_LOG = 'bm25_removed';

/**
 * The log of removed rows (migration 0010) above the copy's generation, each placed: a row of the
 * copy (`inCopy`, its index), a row the earlier difference added (`gone`), a row added and removed
 * between two reads (`addedBetween`: above the copy's last, in neither), or none of these
 * (`unplaced`: below the copy's last, not in it). Null without the log.
 *
 * The log is complete when the generation counter says so: the triggers of "snippets" (0007, 0010)
 * bump it once per row inserted and once per row removed, and an update renews the epoch (no
 * difference then). So the rows known to be inserted since — the live rows above the last the copy or
 * the earlier difference holds, the earlier difference's rows, `addedBetween` — plus the `entries`
 * reach the counter's rise exactly when no insert or removal is unaccounted for (each count can only
 * fall short). That replaces a count(*) over the row sizes (4.5–7.7 ms at 1M) on the first search
 * after every write. Otherwise the live row count decides whether the log holds what was removed.
 */
function removalLog(
  db: Database.Database,
  copy: { fingerprint: string; docIds: Int32Array },
  had: Int32Array,
): {
  entries: number;
  inCopy: number[];
  gone: Set<number>;
  addedBetween: number;
  unplaced: number;
  removed(): [Uint8Array, Set<number>];
} | null {
  if (!hasTable(db, REMOVED_LOG)) return null;
  const ids = prepared(db, `SELECT rowid FROM ${REMOVED_LOG} WHERE generation > ?`).pluck().all(generationOf(copy.fingerprint)) as number[];
  const copyLast = copy.docIds.length ? copy.docIds[copy.docIds.length - 1]! : Number.NEGATIVE_INFINITY;
  const inCopy: number[] = [];
  const gone = new Set<number>();
  let addedBetween = 0;
  let unplaced = 0;
  for (const id of ids) {
    const d = sortedIndexOf(copy.docIds, id);
    if (d >= 0) inCopy.push(d);
    else if (sortedIndexOf(had, id) >= 0) gone.add(id);
    else if (id > copyLast) addedBetween++;
    else unplaced++;
  }
  const removed = (): [Uint8Array, Set<number>] => {
    const mask = new Uint8Array(copy.docIds.length);
    for (const d of inCopy) mask[d] = 1;
    return [mask, gone];
  };
  return { entries: ids.length, inCopy, gone, addedBetween, unplaced, removed };
}

function sortedIndexOf(ids: Int32Array, id: number): number {
  let [lo, hi] = [0, ids.length - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! === id) return mid;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * Lets go of the removals a copy replaced by a newer one already holds (its generation and below):
 * a reader still on that copy reloads the newer within seconds, and one that has not finds the log
 * short and reads the rowids. Keeps the log to the removals of about one index run.
 */
export function trimRemovedLog(db: Database.Database, replacedFingerprint: string): void {
  if (hasTable(db, REMOVED_LOG)) db.prepare(`DELETE FROM ${REMOVED_LOG} WHERE generation <= ?`).run(generationOf(replacedFingerprint));
}

/**
 * The rows of two ascending rowid lists (the copy's, the rows added since) that the live rowids (ascending) no longer
 * hold: a mask over the first, a set of the second's. Null when a live rowid is in neither (a row
 * added below the copy's last: not a difference this can take).
 */
function goneRows(liveIds: readonly number[], [copyIds, addedIds]: [Int32Array, Int32Array]): [Uint8Array, Set<number>] | null {
  const mask = new Uint8Array(copyIds.length).fill(1);
  const kept = new Set<number>();
  let d = 0;
  let a = 0;
  for (const id of liveIds) {
    while (d < copyIds.length && copyIds[d]! < id) d++;
    while (a < addedIds.length && addedIds[a]! < id) a++;
    if (copyIds[d] === id) mask[d] = 0;
    else if (addedIds[a] === id) kept.add(id);
    else return null;
  }
  return [mask, new Set([...addedIds].filter((id) => !kept.has(id)))];
}

const DELTA_COLUMNS: ReadonlyMap<string, number> = new Map([
  ['title', 0],
  ['text', 1],
]);

/** Connections whose temporary tables for tokenizing new rows exist (made once per connection; nothing drops them). */
const deltaTables = new WeakSet<Database.Database>();

/**
 * Postings of rows (title, text) as FTS5 tokenizes them: a temporary FTS5 table with the same
 * tokenizer, read through fts5vocab. Contentless (its index is all that is read): FTS5 clears it at
 * once with 'delete-all', where a table with content deletes row by row (~4 ms for 100 rows, at
 * every difference a search reads after a write).
 */
function tokenizeRows(
  db: Database.Database,
  rows: readonly { id: number; title: string | null; text: string | null }[],
  tokenizer: string,
): ImpactArrays | null {
  if (!deltaTables.has(db)) {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.quin_impact_delta USING fts5(title, text, tokenize='${tokenizer}', content='')`);
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.quin_impact_delta_v USING fts5vocab(temp, 'quin_impact_delta', 'instance')`);
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.quin_impact_delta_r USING fts5vocab(temp, 'quin_impact_delta', 'row')`);
    deltaTables.add(db);
  }
  try {
    const ins = prepared(db, `INSERT INTO temp.quin_impact_delta (rowid, title, text) VALUES (?, ?, ?)`);
    db.transaction(() => rows.forEach((r) => ins.run(r.id, r.title, r.text)))();
    const builder = new ImpactBuilder(rows.map((r) => r.id));
    const src = { vocab: 'quin_impact_delta_v', rows: 'quin_impact_delta_r', columns: DELTA_COLUMNS };
    return addInstances(db, src, builder) ? builder.finish() : null;
  } finally {
    prepared(db, `INSERT INTO temp.quin_impact_delta (quin_impact_delta) VALUES ('delete-all')`).run();
  }
}

/** Single-token phrases per query term, tokenized by FTS5 itself (null: not exactly one token). */
export class QueryTokenizer {
  private readonly cache = new Map<string, string | null>();
  private readonly insert: Database.Statement;
  private readonly tokens: Database.Statement;
  private readonly clear: Database.Statement;

  constructor(db: Database.Database, tokenizer: string) {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.quin_query_terms USING fts5(t, tokenize='${tokenizer}')`);
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.quin_query_terms_v USING fts5vocab(temp, 'quin_query_terms', 'instance')`);
    this.insert = db.prepare(`INSERT INTO temp.quin_query_terms (rowid, t) VALUES (?, ?)`);
    this.tokens = db.prepare(`SELECT doc, term FROM temp.quin_query_terms_v`).raw();
    this.clear = db.prepare(`DELETE FROM temp.quin_query_terms`);
  }

  /** One token per term, or null when some term is not exactly one token. */
  tokenize(terms: readonly string[]): string[] | null {
    const missing = [...new Set(terms.filter((t) => !this.cache.has(t)))];
    if (missing.length) {
      missing.forEach((t, i) => this.insert.run(i + 1, t));
      const found = new Map<number, string[]>();
      for (const [doc, term] of this.tokens.all() as [number, string][]) (found.get(doc) ?? found.set(doc, []).get(doc)!).push(term);
      this.clear.run();
      missing.forEach((t, i) => {
        const toks = found.get(i + 1) ?? [];
        if (this.cache.size > 50_000) this.cache.clear();
        this.cache.set(t, toks.length === 1 ? toks[0]! : null);
      });
    }
    const out: string[] = [];
    for (const t of terms) {
      const tok = this.cache.get(t);
      if (tok === null || tok === undefined) return null;
      out.push(tok);
    }
    return out;
  }
}

/** The arrays of the file, in order (4-byte ones first; each padded to 8 bytes). */
const FILE_ARRAYS = [
  ['termStart', Uint32Array],
  ['termBlock', Uint32Array],
  ['blockLast', Uint32Array],
  ['blockByte', Uint32Array],
  ['blockMinLen', Uint32Array],
  ['docIds', Int32Array],
  ['docLen', Uint32Array],
  ['blockMaxTf0', Uint16Array],
  ['blockMaxTf1', Uint16Array],
  ['bytes', Uint8Array],
] as const;

type FileArray = (typeof FILE_ARRAYS)[number][0];

const pad8 = (n: number) => (8 - (n % 8)) % 8;

/** Layout: magic, header length (u32 LE), header JSON, zero padding to 8, the blocks' arrays (bm25/impact-blocks.ts), the terms. */
export function encodeImpact(b: BuiltImpact): Buffer {
  return Buffer.concat(impactFileParts(b.fingerprint, compressPostings(b.arrays)));
}

/** The file's pieces in order, the arrays as views of the blocks (not copied). */
function impactFileParts(fingerprint: string, blocks: ImpactBlocks): Buffer[] {
  const terms = Buffer.from(blocks.terms.join('\n'), 'utf8');
  const header = Buffer.from(
    JSON.stringify({
      fingerprint,
      nTerms: blocks.terms.length,
      termsBytes: terms.length,
      lengths: FILE_ARRAYS.map(([n]) => [n, blocks[n].byteLength]),
    }),
    'utf8',
  );
  const len = Buffer.alloc(4);
  len.writeUInt32LE(header.length);
  const chunks: Buffer[] = [Buffer.from(MAGIC), len, header, Buffer.alloc(pad8(MAGIC.length + 4 + header.length))];
  for (const [name] of FILE_ARRAYS) {
    const v = blocks[name];
    chunks.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength), Buffer.alloc(pad8(v.byteLength)));
  }
  chunks.push(terms);
  return chunks;
}

/**
 * The blocks as views into `buf` (no copy: a file read whole is 8-aligned; a buffer that is not, such
 * as a pooled small one, is copied once).
 */
export function decodeImpactBlocks(buf: Buffer): { fingerprint: string; blocks: ImpactBlocks } {
  if (buf.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) throw new Error('not a BM25 impact file (or an older format)');
  const hlen = buf.readUInt32LE(MAGIC.length);
  let off = MAGIC.length + 4;
  const header = JSON.parse(buf.subarray(off, off + hlen).toString('utf8')) as {
    fingerprint: string;
    nTerms: number;
    termsBytes: number;
    lengths: [string, number][];
  };
  off += hlen;
  off += pad8(off);
  const body = buf.byteOffset % 8 === 0 ? buf : Buffer.from(new Uint8Array(buf));
  const views = {} as Record<FileArray, ArrayBufferView>;
  FILE_ARRAYS.forEach(([name, Type], i) => {
    const [n, bytes] = header.lengths[i] ?? [];
    if (n !== name || bytes === undefined || off + bytes > body.length) throw new Error('BM25 impact file: arrays damaged');
    views[name] = new Type(body.buffer as ArrayBuffer, body.byteOffset + off, bytes / Type.BYTES_PER_ELEMENT);
    off += bytes + pad8(bytes);
  });
  if (off + header.termsBytes > body.length) throw new Error('BM25 impact file: term list damaged');
  const termsText = body.subarray(off, off + header.termsBytes).toString('utf8');
  const terms = header.nTerms ? termsText.split('\n') : [];
  if (terms.length !== header.nTerms) throw new Error('BM25 impact file: term list damaged');
  const blocks = { terms, ...views } as ImpactBlocks;
  checkBlocks(blocks);
  return { fingerprint: header.fingerprint, blocks };
}

/** The arrays' sizes agree with each other (a damaged or truncated file is refused, never searched). */
function checkBlocks(bl: ImpactBlocks): void {
  const nT = bl.terms.length;
  const nB = bl.blockLast.length;
  const ok =
    bl.termStart.length === nT + 1 &&
    bl.termBlock.length === nT + 1 &&
    bl.termBlock[nT] === nB &&
    bl.blockByte.length === nB + 1 &&
    bl.blockByte[nB] === bl.bytes.length &&
    bl.blockMaxTf0.length === nB &&
    bl.blockMaxTf1.length === nB &&
    bl.blockMinLen.length === nB &&
    bl.docLen.length === bl.docIds.length;
  if (!ok) throw new Error('BM25 impact file: arrays do not fit together');
}

/** The saved copy as flat arrays (what an incremental update merges into). */
export function decodeImpact(buf: Buffer): BuiltImpact {
  const { fingerprint, blocks } = decodeImpactBlocks(buf);
  return { fingerprint, arrays: inflatePostings(blocks) };
}

/** The fingerprint in a saved file's header (without reading its arrays); null when absent or unreadable. */
export function readImpactFingerprint(file: string): string | null {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(64 * 1024);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    if (head.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) return null;
    const hlen = head.readUInt32LE(MAGIC.length);
    if (MAGIC.length + 4 + hlen > n) return null;
    return (JSON.parse(head.subarray(MAGIC.length + 4, MAGIC.length + 4 + hlen).toString('utf8')) as { fingerprint: string }).fingerprint;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export function writeImpactFile(file: string, b: BuiltImpact): void {
  writeImpactBlocks(file, b.fingerprint, compressPostings(b.arrays));
}

export function writeImpactBlocks(file: string, fingerprint: string, blocks: ImpactBlocks): void {
  writeFileAtomic(file, impactFileParts(fingerprint, blocks));
}

/**
 * The natural logarithm of the C library, as FTS5's bm25() computes its idf (through SQLite's ln(),
 * the same libm in the same binary); Math.log when this SQLite lacks the math functions.
 */
export function sqliteLog(db: Database.Database): (x: number) => number {
  try {
    const ln = db.prepare('SELECT ln(?)').pluck();
    if (typeof ln.get(2) !== 'number') return Math.log;
    return (x) => ln.get(x) as number;
  } catch {
    return Math.log;
  }
}

/** The saved copy, or null when absent or unreadable (FTS5 answers then). */
export function readImpactFile(file: string, log?: (x: number) => number): { fingerprint: string; index: ImpactIndex } | null {
  if (!fs.existsSync(file)) return null;
  try {
    return impactOf(fs.readFileSync(file), log);
  } catch {
    return null;
  }
}

/** As readImpactFile, the file read without holding the thread (~0.2 s for 175 MB at 1M). */
export async function readImpactFileAsync(
  file: string,
  log?: (x: number) => number,
): Promise<{ fingerprint: string; index: ImpactIndex } | null> {
  try {
    return impactOf(await fs.promises.readFile(file), log);
  } catch {
    return null;
  }
}

function impactOf(buf: Buffer, log?: (x: number) => number): { fingerprint: string; index: ImpactIndex } {
  const b = decodeImpactBlocks(buf);
  return { fingerprint: b.fingerprint, index: new ImpactIndex(b.blocks, log) };
}
