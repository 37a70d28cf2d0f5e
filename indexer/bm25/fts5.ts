/**
 * BM25 with SQLite FTS5, in one of two places:
 * - `content`: the table "snippets_fts" inside the SQLite database itself (external content over
 *   "snippets", kept in step by triggers: see prisma/migrations/sqlite/0002_index.sql). Filters join
 *   "snippets".
 * - `file`: when the database is PostgreSQL, a SQLite file in the data dir with its own copy of title,
 *   text, source and date, kept in step by `quin index` (one SQLite transaction per batch).
 * Scores are −bm25 (higher is better) with the title weighted.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createError } from '../../lib/errors';
import type { Db } from '../../lib/db/client';
import { createLogger } from '../../lib/log';
import { idProblems } from '../diff';
import type { Hit, IndexFilter, SparseQuery } from '../types';
import type { Bm25Backend, Bm25Status, Bm25SyncOptions, Bm25SyncStats, Bm25Verify } from './backend';
import { syncFtsFile } from './fts-file-sync';
import { buildMatchExpression, rankExpression, usableTerms } from './fts5-query';
import { fileBytes, removeStrayFiles } from '../files';
import { ImpactIndex } from './impact';
import { LiveImpact } from './impact-live';
import {
  BUMP_GENERATION,
  fingerprintReader,
  GENERATION_DDL,
  rewriteImpact,
  decodeImpactBlocks,
  QueryTokenizer,
  readImpact,
  readImpactFile,
  readImpactFileAsync,
  readImpactFingerprint,
  readLiveDelta,
  trimRemovedLog,
  RENEW_EPOCH,
  sqliteLog,
  updateImpact,
  writeImpactBlocks,
  writeImpactFile,
} from './impact-store';

export const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';
export const FTS_FILE_NAME = 'bm25-fts5.sqlite';

export interface FtsRow {
  id: number;
  title: string;
  text: string;
  source: string;
  publishedAt: Date | null;
}

export type FtsMode = 'content' | 'file';

export interface Fts5Options {
  titleWeight: number;
  /** `sync` keeps the BM25 accelerator from this many rows on (BM25_IMPACT_MIN); default never. */
  impactMin?: number;
  /** The BM25 accelerator's file (bm25/impact.ts); default: beside the FTS5 database file. */
  impactFile?: string;
}

/** How often a reader looks for a newer accelerator file when its copy no longer matches FTS5. */
const IMPACT_RECHECK_MS = 2000;

export interface ImpactRefresh {
  built: boolean;
  reason: string;
  seconds: number;
  /** Brought up to date by the difference (rows added and removed), not built from scratch. */
  incremental?: { added: number; removed: number };
}

function dateParam(d: Date | undefined, name: string): string | undefined {
  if (d === undefined) return undefined;
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw createError('INVALID_INPUT', `filter ${name} is not a valid date`);
  return d.toISOString();
}

/** WHERE fragments and parameters for a filter over the columns `<alias>.published_at` / `.source`. */
export function filterSql(filter: IndexFilter | undefined, alias: string): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  const from = dateParam(filter?.from, 'from');
  const to = dateParam(filter?.to, 'to');
  if (from) {
    parts.push(`${alias}.published_at >= @from`);
    params.from = from;
  }
  if (to) {
    parts.push(`${alias}.published_at <= @to`);
    params.to = to;
  }
  if (filter?.sources) {
    const sources = filter.sources.filter((s) => typeof s === 'string');
    if (sources.length === 0) return { sql: ' AND 0', params };
    parts.push(`${alias}.source IN (${sources.map((_, i) => `@src${i}`).join(', ')})`);
    sources.forEach((s, i) => (params[`src${i}`] = s));
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

const log = createLogger('index:bm25');

/** The content-mode index's size per database file, measured at most once per SIZE_TTL_MS (sizeBytes). */
const measuredSizes = new Map<string, { at: number; bytes: number }>();
const SIZE_TTL_MS = 60_000;

export class Fts5Index implements Bm25Backend {
  readonly backend = 'fts5' as const;
  private readonly db: Database.Database;
  readonly impactFile: string;
  private impact: { fingerprint: string; index: ImpactIndex; mtimeMs: number } | null = null;
  /** The copy brought to the live generation (content mode, between two index runs). */
  private live: LiveImpact | null = null;
  /** The last generation the difference could not take from the copy held. */
  private liveMiss: string | null = null;
  private impactCheckedAt = 0;
  /** The modification time of the accelerator file being read in the background, if one is. */
  private loading: number | null = null;
  private tokenizer: QueryTokenizer | undefined;
  /** Which path answered the last search (for tests and the benchmark). */
  lastPath: 'impact' | 'impact+live' | 'fts5' = 'fts5';
  private impactPath: 'impact' | 'impact+live' = 'impact';

  constructor(
    readonly file: string,
    readonly mode: FtsMode,
    private readonly opts: Fts5Options,
  ) {
    if (mode === 'content' && !fs.existsSync(file)) throw createError('INDEX_UNAVAILABLE', `SQLite database ${file} does not exist`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('busy_timeout = 15000');
    if (mode === 'file') {
      this.db.pragma('journal_mode = WAL');
      this.db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS snippets_fts USING fts5(title, text, source UNINDEXED, published_at UNINDEXED, tokenize='${FTS_TOKENIZER}')`,
      );
      this.db.exec(GENERATION_DDL);
    } else {
      const ok = this.db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'snippets_fts'`).get();
      if (!ok) throw createError('INDEX_UNAVAILABLE', `${file} has no snippets_fts table (run \`quin migrate\`)`);
    }
    this.impactFile = opts.impactFile ?? `${file}.bm25-impact`;
    this.fingerprint = fingerprintReader(this.db);
  }

  /** The live freshness fingerprint (bm25/impact-store.ts); null without a generation table (no accelerator). */
  private readonly fingerprint: (() => string | null) | null;

  private bumpGeneration(renewEpoch = false): void {
    if (this.fingerprint) this.db.exec(renewEpoch ? RENEW_EPOCH : BUMP_GENERATION);
  }

  /**
   * The accelerator for the live FTS5 index: its copy while that is the live generation; else, in
   * content mode, the copy with the rows written since (bm25/impact-live.ts; built once per
   * generation); null when neither can answer (FTS5 does). A newer copy on disk is looked for at most
   * every 2 s while the one held is behind.
   */
  private freshImpact(): ImpactIndex | LiveImpact | null {
    const live = this.fingerprint?.();
    if (!live) return null;
    this.reloadImpact(live);
    const copy = this.impact;
    if (!copy) return null;
    if (copy.fingerprint === live) return copy.index;
    // A generation the difference cannot take (too many rows, another epoch) is not tried again on every search.
    if (this.mode !== 'content' || this.liveMiss === live) return null;
    if (this.live?.base !== copy.index || this.live.fingerprint !== live) {
      const since = this.live?.base === copy.index ? this.live.delta : null;
      const delta = readLiveDelta(this.db, { fingerprint: copy.fingerprint, docIds: copy.index.blocks.docIds }, FTS_TOKENIZER, { since });
      // Searches run to completion on this thread (searchImpact is synchronous): nothing reads the
      // generation replaced again, and it is let go before the next one writes over its norms.
      const replaced = this.live;
      this.live = null;
      this.live = delta ? new LiveImpact(copy.index, delta, replaced) : null;
      if (!delta) this.liveMiss = live;
    }
    return this.live?.base === copy.index && this.live.fingerprint === live ? this.live : null;
  }

  /** Reads the accelerator file again when the copy held is behind the live index and the file changed. */
  private reloadImpact(live: string): void {
    if (this.impact?.fingerprint === live) return;
    const now = Date.now();
    if (now - this.impactCheckedAt < IMPACT_RECHECK_MS && this.impactCheckedAt > 0) return;
    this.impactCheckedAt = now;
    const mtimeMs = fs.existsSync(this.impactFile) ? fs.statSync(this.impactFile).mtimeMs : -1;
    // The file removed (the index shrank below BM25_IMPACT_MIN, or holds rows a copy cannot represent): no copy.
    if (mtimeMs < 0) {
      this.impact = this.live = null;
      this.loading = null;
    }
    if (mtimeMs < 0 || mtimeMs === this.impact?.mtimeMs || mtimeMs === this.loading) return;
    if (!this.impact) {
      // Nothing to answer with meanwhile: read now (the first search after a start pays for it).
      const loaded = readImpactFile(this.impactFile, sqliteLog(this.db));
      this.impact = loaded ? { ...loaded, mtimeMs } : null;
      this.liveMiss = null;
      return;
    }
    // A newer copy (after an index run) is read in the background, ~0.4 s at 1M that no search waits
    // for: the copy held answers meanwhile, with the rows written since.
    this.loading = mtimeMs;
    void readImpactFileAsync(this.impactFile, sqliteLog(this.db)).then((loaded) => {
      if (this.loading !== mtimeMs) return;
      this.loading = null;
      if (!loaded) return;
      this.impact = { ...loaded, mtimeMs };
      this.liveMiss = null;
    });
  }

  /**
   * Exact BM25 top k from the accelerator — pruned, or (`exhaustive`, the reference the benchmark
   * checks the pruned search against) every posting scored; null when it cannot answer this query
   * (FTS5 does).
   */
  searchImpact(terms: readonly unknown[], k: number, exhaustive = false): Hit[] | null {
    const index = this.freshImpact();
    if (!index) return null;
    this.impactPath = index instanceof LiveImpact ? 'impact+live' : 'impact';
    this.tokenizer ??= new QueryTokenizer(this.db, FTS_TOKENIZER);
    const phrases = this.tokenizer.tokenize(usableTerms(terms));
    if (!phrases) return null;
    const weights = rankExpression(this.opts.titleWeight).slice('bm25('.length, -1).split(', ').map(Number);
    const w: [number, number] = [weights[0]!, weights[1]!];
    return exhaustive ? index.searchExhaustive(phrases, k, w) : index.search(phrases, k, w);
  }

  /** The accelerator while it matches the FTS5 index (the benchmark reads its size), else null. */
  accelerator(): ImpactIndex | null {
    const index = this.freshImpact();
    return index instanceof ImpactIndex ? index : null;
  }

  /**
   * Rebuilds the accelerator file when it no longer matches FTS5 and the index holds at least
   * `minRows` rows (below that FTS5 alone is fast enough). Run by the indexer, off the request path.
   */
  refreshImpact(minRows: number): ImpactRefresh {
    const started = Date.now();
    const done = (built: boolean, reason: string): ImpactRefresh => ({ built, reason, seconds: (Date.now() - started) / 1000 });
    // Leftovers of a run killed while writing the file (the indexer's lock is held here).
    removeStrayFiles(path.dirname(this.impactFile), path.basename(this.impactFile), path.basename(this.impactFile));
    const rows = (this.db.prepare(`SELECT count(*) AS n FROM snippets_fts_docsize`).get() as { n: number }).n;
    if (rows < minRows) {
      fs.rmSync(this.impactFile, { force: true });
      return done(false, `${rows} rows, below ${minRows}`);
    }
    const live = this.fingerprint?.();
    if (!live) {
      fs.rmSync(this.impactFile, { force: true });
      return done(false, 'no bm25_generation table to check freshness against (run `quin migrate`)');
    }
    const savedFingerprint = readImpactFingerprint(this.impactFile);
    if (savedFingerprint === live) return done(false, 'up to date');
    // A copy of an earlier generation of the same epoch: brought up to date by the difference.
    if (savedFingerprint) {
      try {
        const saved = decodeImpactBlocks(fs.readFileSync(this.impactFile));
        const rewritten = this.mode === 'content' ? rewriteImpact(this.db, saved, FTS_TOKENIZER) : null;
        if (rewritten) {
          writeImpactBlocks(this.impactFile, rewritten.fingerprint, rewritten.blocks);
          this.trimLog(savedFingerprint);
          const { added, removed } = rewritten;
          return { ...done(true, `updated: ${added} rows added, ${removed} removed`), incremental: { added, removed } };
        }
        const updated = updateImpact(this.db, saved, FTS_TOKENIZER);
        if (updated) {
          writeImpactBlocks(this.impactFile, updated.fingerprint, updated.blocks);
          this.trimLog(savedFingerprint);
          return {
            ...done(true, `updated: ${updated.added} rows added, ${updated.removed} removed`),
            incremental: { added: updated.added, removed: updated.removed },
          };
        }
      } catch (e) {
        log.warn('BM25 accelerator: incremental update failed, building from scratch', { error: (e as Error).message });
      }
    }
    const built = readImpact(this.db);
    if (!built) {
      fs.rmSync(this.impactFile, { force: true });
      return done(false, 'the FTS5 index holds rows the accelerator cannot represent');
    }
    writeImpactFile(this.impactFile, built);
    if (savedFingerprint) this.trimLog(savedFingerprint);
    return done(true, 'rebuilt');
  }

  /** The removals the replaced copy held let go of (impact-store.ts trimRemovedLog); a failure only leaves the log longer. */
  private trimLog(replaced: string): void {
    if (this.mode !== 'content') return;
    try {
      trimRemovedLog(this.db, replaced);
    } catch (e) {
      log.warn('BM25 accelerator: the log of removed rows was not trimmed', { error: (e as Error).message });
    }
  }

  async search(query: SparseQuery, k: number, filter?: IndexFilter): Promise<Hit[]> {
    if (!Number.isFinite(k) || k < 1) return [];
    this.lastPath = 'fts5';
    const match = buildMatchExpression(query.terms);
    if (!filter && this.opts.impactFile !== '') {
      try {
        const hits = this.searchImpact(query.terms, Math.min(Math.floor(k), 100_000));
        if (hits) {
          this.lastPath = this.impactPath;
          return hits;
        }
      } catch {
        // The accelerator is only a shortcut: FTS5 answers below.
      }
    }
    const f = filterSql(filter, this.mode === 'content' ? 's' : 'f');
    const join = this.mode === 'content' && f.sql ? ' JOIN snippets s ON s.id = f.rowid' : '';
    const rank = rankExpression(this.opts.titleWeight, this.mode === 'file' ? 2 : 0);
    const sql = `SELECT f.rowid AS id, -f.rank AS score FROM snippets_fts f${join} WHERE snippets_fts MATCH @match AND f.rank MATCH @rank${f.sql} ORDER BY f.rank LIMIT @k`;
    try {
      const rows = this.db.prepare(sql).all({ match, rank, k: Math.min(Math.floor(k), 100_000), ...f.params }) as {
        id: number;
        score: number;
      }[];
      return rows.map((r) => ({ snippetId: r.id, score: r.score }));
    } catch (e) {
      // The expression is built from quoted tokens, so this is a database problem, not the user's input.
      throw createError('INDEX_UNAVAILABLE', `FTS5 search failed: ${(e as Error).message}`, undefined, e);
    }
  }

  async count(): Promise<number> {
    if (this.mode === 'content') return (this.db.prepare(`SELECT count(*) AS n FROM snippets`).get() as { n: number }).n;
    return (this.db.prepare(`SELECT count(*) AS n FROM snippets_fts`).get() as { n: number }).n;
  }

  /** Snippet ids present in the index, ascending (file mode: its own rows; content mode: via fts5vocab). */
  ids(): number[] {
    if (this.mode === 'file') return this.db.prepare(`SELECT rowid AS id FROM snippets_fts ORDER BY rowid`).pluck().all() as number[];
    // External content: "SELECT rowid FROM snippets_fts" would read the content table, so ask the index itself.
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.snippets_fts_instances USING fts5vocab(main, 'snippets_fts', 'instance')`);
    return this.db.prepare(`SELECT DISTINCT doc FROM temp.snippets_fts_instances ORDER BY doc`).pluck().all() as number[];
  }

  /** FTS5's own consistency check (content mode: the index against the snippets table). */
  integrityCheck(): string | null {
    try {
      this.db.prepare(`INSERT INTO snippets_fts (snippets_fts, rank) VALUES ('integrity-check', 1)`).run();
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  }

  /** File mode: adds rows (replacing any with the same id) and removes ids, in one transaction. */
  apply(add: readonly FtsRow[], remove: readonly number[]): void {
    if (this.mode !== 'file') throw createError('INTERNAL', 'the content-mode FTS5 index is maintained by triggers');
    const del = this.db.prepare(`DELETE FROM snippets_fts WHERE rowid = ?`);
    const ins = this.db.prepare(`INSERT INTO snippets_fts (rowid, title, text, source, published_at) VALUES (?, ?, ?, ?, ?)`);
    this.db
      .transaction(() => {
        for (const id of remove) del.run(id);
        let replaced = false;
        for (const r of add) {
          if (del.run(r.id).changes > 0) replaced = true;
          ins.run(r.id, r.title, r.text, r.source, r.publishedAt ? r.publishedAt.toISOString() : null);
        }
        // A row replaced under its id changes content the accelerator's copy cannot see by ids: new epoch.
        if (add.length || remove.length) this.bumpGeneration(replaced);
      })
      .immediate();
  }

  /** Content mode: rebuilds the FTS5 index from the snippets table (`quin index --rebuild`). */
  rebuildContent(): void {
    if (this.mode !== 'content') throw createError('INTERNAL', 'only the content-mode FTS5 index is rebuilt from the snippets table');
    this.db
      .transaction(() => {
        this.db.exec(`INSERT INTO snippets_fts (snippets_fts) VALUES ('rebuild')`);
        this.bumpGeneration();
      })
      .immediate();
  }

  /** File mode: drops every row (used when the file does not belong to this database any more). */
  clear(): void {
    if (this.mode !== 'file') throw createError('INTERNAL', 'the content-mode FTS5 index is maintained by triggers');
    this.db
      .transaction(() => {
        this.db.exec(`DELETE FROM snippets_fts`);
        this.bumpGeneration(true);
      })
      .immediate();
  }

  sizeBytes(): number {
    if (this.mode === 'file') {
      return fileBytes(this.file) + fileBytes(`${this.file}-wal`);
    }
    // dbstat reads every page of the tables: ~200 ms at 40 MB, in every /api/health and /metrics
    // call, on the event loop. A size a minute old is good enough for those.
    const known = measuredSizes.get(this.file);
    if (known && Date.now() - known.at < SIZE_TTL_MS) return known.bytes;
    let bytes = 0;
    try {
      const row = this.db.prepare(`SELECT sum(pgsize) AS n FROM dbstat WHERE name LIKE 'snippets_fts%'`).get() as { n: number | null };
      bytes = row.n ?? 0;
    } catch {
      bytes = 0; // dbstat not compiled in
    }
    measuredSizes.set(this.file, { at: Date.now(), bytes });
    return bytes;
  }

  get location(): 'fts5' | 'fts5-file' {
    return this.mode === 'content' ? 'fts5' : 'fts5-file';
  }

  /** Content mode: triggers keep it in step, only `rebuild` touches it; file mode: a diff of ids. Then the accelerator. */
  async sync(db: Db, opts: Bm25SyncOptions): Promise<Bm25SyncStats> {
    const started = Date.now();
    let stats: Bm25SyncStats;
    if (this.mode === 'content') {
      if (opts.rebuild) this.rebuildContent();
      stats = { backend: 'fts5', added: opts.rebuild ? await this.count() : 0, removed: 0, seconds: 0 };
    } else {
      stats = await syncFtsFile(db, this, opts);
    }
    const impact = this.refreshImpact(this.opts.impactMin ?? Number.POSITIVE_INFINITY);
    if (impact.built)
      log.info(`BM25 accelerator ${impact.incremental ? 'updated' : 'rebuilt'}`, { seconds: impact.seconds, reason: impact.reason });
    return { ...stats, seconds: (Date.now() - started) / 1000 };
  }

  async verify(_db: Db, dbIds: readonly number[]): Promise<Bm25Verify> {
    const problems: string[] = [];
    const integrity = this.integrityCheck();
    if (integrity) problems.push(`FTS5 integrity-check failed: ${integrity}`);
    const ids = this.ids();
    problems.push(...idProblems('FTS5', dbIds, ids));
    return { facts: { indexed: ids.length }, problems };
  }

  async status(_db: Db, snippets: number): Promise<Bm25Status> {
    const indexed = this.mode === 'content' ? snippets : await this.count();
    return { indexed, pending: Math.max(0, snippets - indexed), bytes: this.sizeBytes() };
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
