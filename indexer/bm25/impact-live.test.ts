/**
 * The accelerator between two index runs (bm25/impact-live.ts): the crawler writes snippets while
 * the copy was built for an earlier generation, and BM25 must answer as FTS5 does over the live
 * index — the same rows, the same doubles — without waiting for `quin index`.
 */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqlitePath } from '../../lib/config';
import { mulberry32 as rng } from '../../lib/random';
import { createTestDb, type TestDb } from '../../testing/db';
import { addArticle, changeArticle, type TestArticle } from '../test-corpus';
import { FTS_TOKENIZER, Fts5Index } from './fts5';
import { readImpactFile, readLiveDelta } from './impact-store';

const WORDS = `study patients cancer risk increase vaccine climate warming ocean protein gene trial effect
  reduce mortality heart disease blood pressure insulin diabetes café naïve policy market rates`
  .split(/\s+/)
  .filter(Boolean);

/** Articles of skewed random words, so that some terms are common and pruning has work to do. */
function articles(seed: number, n: number, prefix: string, extra = ''): TestArticle[] {
  const r = rng(seed);
  const word = () => WORDS[Math.floor(r() ** 2 * WORDS.length)]!;
  const sentence = () => `${Array.from({ length: 4 + Math.floor(r() * 14) }, word).join(' ')}${extra}.`;
  return Array.from({ length: n }, (_, i) => ({
    key: `${prefix}-${i}`,
    title: Array.from({ length: 1 + Math.floor(r() * 4) }, word).join(' '),
    sentences: Array.from({ length: 3 + Math.floor(r() * 6) }, sentence),
  }));
}

const QUERIES: string[][] = [
  ['study'],
  ['cancer', 'risk', 'increase', 'mortality', 'heart', 'blood'],
  ['study', 'patients', 'study'], // a repeated term counts twice
  ['Café', 'naive', 'policy'],
  ['zeppelin', 'market'], // a term only the rows added since hold
  ['absentword', 'ocean'],
];

describe.skipIf(process.env.QUIN_TEST_DB === 'postgres')('BM25 accelerator between index runs', () => {
  let t: TestDb;
  let fts: Fts5Index;
  let plain: Fts5Index;
  beforeEach(async () => {
    t = await createTestDb();
    for (const a of articles(1, 60, 'base')) await addArticle(t.db, a);
    fts = new Fts5Index(sqlitePath(t.config), 'content', { titleWeight: 1.5 });
    plain = new Fts5Index(sqlitePath(t.config), 'content', { titleWeight: 1.5, impactFile: '' });
    expect(fts.refreshImpact(0).built).toBe(true);
  });
  afterEach(async () => {
    await fts.close();
    await plain.close();
    await t.cleanup();
  });

  /** Every query, pruned and exhaustive, at two depths: FTS5's own answer, from the copy and the difference. */
  async function expectFts5Answers(): Promise<void> {
    for (const terms of QUERIES) {
      for (const k of [5, 200]) {
        const want = await plain.search({ text: '', terms }, k);
        expect(plain.lastPath).toBe('fts5');
        expect(await fts.search({ text: '', terms }, k)).toEqual(want);
        expect(fts.lastPath).toBe('impact+live');
        expect(fts.searchImpact(terms, k, true)).toEqual(want);
      }
    }
  }

  it('answers as FTS5 does through added, removed and changed articles, generation after generation', async () => {
    const added = [];
    for (const a of articles(2, 3, 'late', ' zeppelin market')) added.push(await addArticle(t.db, a));
    await expectFts5Answers();
    // Removed from the copy and from the rows added since; an article changed as the crawler changes one (new snippet ids).
    await t.db.$executeRawUnsafe(`DELETE FROM snippets WHERE article_id = (SELECT min(id) FROM articles)`);
    await t.db.$executeRawUnsafe(`DELETE FROM snippets WHERE id = ?`, added[0]!.snippetIds[0]!);
    await changeArticle(t.db, added[1]!.articleId, articles(3, 1, 'changed', ' zeppelin')[0]!);
    await expectFts5Answers();
    for (const a of articles(4, 2, 'later')) await addArticle(t.db, a);
    await expectFts5Answers();
    // The indexer's copy catches up; the live difference of the old copy is no longer needed.
    expect(fts.refreshImpact(0).incremental).toBeDefined();
    const terms = ['zeppelin', 'cancer'];
    expect(await fts.search({ text: '', terms }, 20)).toEqual(await plain.search({ text: '', terms }, 20));
  });

  it('takes only the rows added since the last difference, carrying its removals', async () => {
    const db = new Database(sqlitePath(t.config));
    try {
      const copy = readImpactFile(fts.impactFile)!;
      const of = { fingerprint: copy.fingerprint, docIds: copy.index.blocks.docIds };
      const one = await addArticle(t.db, articles(5, 1, 'one')[0]!);
      // Rows only added: nothing marked removed.
      const onlyAdded = readLiveDelta(db, of, FTS_TOKENIZER)!;
      expect([...onlyAdded.added.docIds]).toEqual(one.snippetIds);
      expect(onlyAdded.removed).toBeNull();
      await t.db.$executeRawUnsafe(`DELETE FROM snippets WHERE article_id = (SELECT min(id) FROM articles)`);
      const first = readLiveDelta(db, of, FTS_TOKENIZER)!;
      expect(first.removed?.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      const two = await addArticle(t.db, articles(6, 1, 'two')[0]!);
      const second = readLiveDelta(db, of, FTS_TOKENIZER, { since: first })!;
      expect(second.removed).toEqual(first.removed);
      expect([...second.added.docIds]).toEqual([...first.added.docIds, ...two.snippetIds]);
      // Beyond the rows it may take, no difference: FTS5 answers.
      expect(readLiveDelta(db, of, FTS_TOKENIZER, { maxAdded: 1 })).toBeNull();
    } finally {
      db.close();
    }
  });

  it('finds the rows removed since in the log of removals, the rowids read only when the log falls short', async () => {
    const db = new Database(sqlitePath(t.config));
    try {
      const copy = readImpactFile(fts.impactFile)!;
      const of = { fingerprint: copy.fingerprint, docIds: copy.index.blocks.docIds };
      await addArticle(t.db, articles(8, 1, 'kept')[0]!);
      await t.db.$executeRawUnsafe(`DELETE FROM snippets WHERE article_id IN (SELECT id FROM articles ORDER BY id LIMIT 2)`);
      const statements: string[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = ((sql: string) => (statements.push(sql), prepare(sql))) as typeof db.prepare;
      const readsRowids = () => statements.some((sql) => sql.includes('WHERE rowid <= ?'));
      const byLog = readLiveDelta(db, of, FTS_TOKENIZER)!;
      expect(readsRowids()).toBe(false);
      expect(byLog.removed!.reduce((a, b) => a + b, 0)).toBeGreaterThan(1);
      // Removals the log lacks (before migration 0010, or let go): the live count says so, and the rowids are read.
      db.exec(`DELETE FROM bm25_removed WHERE rowid = (SELECT max(rowid) FROM bm25_removed)`);
      const byRowids = readLiveDelta(db, of, FTS_TOKENIZER)!;
      expect(readsRowids()).toBe(true);
      expect([...byRowids.removed!]).toEqual([...byLog.removed!]);
      expect([...byRowids.added.docIds]).toEqual([...byLog.added.docIds]);
      // The indexer lets go of the removals that the copy it replaces already held.
      expect(fts.refreshImpact(0).built).toBe(true);
      const held = Number(readImpactFile(fts.impactFile)!.fingerprint.split(':')[1]);
      expect(db.prepare(`SELECT count(*) FROM bm25_removed WHERE generation <= ?`).pluck().get(held)).toBeGreaterThan(0);
      await t.db.$executeRawUnsafe(`DELETE FROM snippets WHERE article_id = (SELECT max(id) FROM articles)`);
      expect(fts.refreshImpact(0).incremental).toMatchObject({ removed: expect.any(Number) });
      const left = db.prepare(`SELECT generation FROM bm25_removed`).pluck().all() as number[];
      expect(left.length).toBeGreaterThan(0);
      expect(Math.min(...left)).toBeGreaterThan(held);
    } finally {
      db.close();
    }
  });

  it('counts no rows when the log and the generation counter account for every change since the copy', async () => {
    const db = new Database(sqlitePath(t.config));
    try {
      const copy = readImpactFile(fts.impactFile)!;
      const of = { fingerprint: copy.fingerprint, docIds: copy.index.blocks.docIds };
      const statements: string[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = ((sql: string) => (statements.push(sql), prepare(sql))) as typeof db.prepare;
      const counts = () => statements.filter((sql) => sql.includes('count(*)')).length;
      /** What the difference must mark: the copy's rows no longer in the database. */
      const gone = () => {
        const live = new Set(db.prepare(`SELECT id FROM snippets`).pluck().all() as number[]);
        return [...of.docIds].map((id) => (live.has(id) ? 0 : 1));
      };
      const a = await addArticle(t.db, articles(9, 1, 'a')[0]!);
      const first = readLiveDelta(db, of, FTS_TOKENIZER)!;
      expect([...first.added.docIds]).toEqual(a.snippetIds);
      // An article added and removed before any difference read it, one of the rows added since, and one of the copy's.
      const b = await addArticle(t.db, articles(10, 1, 'b')[0]!);
      await t.db.$executeRawUnsafe(`DELETE FROM snippets WHERE article_id = ?`, b.articleId);
      await t.db.$executeRawUnsafe(`DELETE FROM snippets WHERE id IN (?, ?)`, a.snippetIds[0]!, of.docIds[3]!);
      const c = await addArticle(t.db, articles(11, 1, 'c')[0]!);
      const second = readLiveDelta(db, of, FTS_TOKENIZER, { since: first })!;
      expect(counts()).toBe(0);
      expect([...second.removed!]).toEqual(gone());
      expect([...second.added.docIds]).toEqual([...a.snippetIds.slice(1), ...c.snippetIds]);
      // Nothing removed since: the earlier difference's mask is carried over as it is.
      const d = await addArticle(t.db, articles(12, 1, 'd')[0]!);
      expect(readLiveDelta(db, of, FTS_TOKENIZER, { since: second })!.removed).toBe(second.removed);
      expect(counts()).toBe(0);
      // A change the log lacks (an entry let go): the counter rose by one more than it accounts for, so the rows are counted.
      db.exec(`DELETE FROM bm25_removed WHERE rowid = ${of.docIds[3]!}`);
      const counted = readLiveDelta(db, of, FTS_TOKENIZER, { since: first })!;
      expect(counts()).toBeGreaterThan(0);
      expect([...counted.removed!]).toEqual(gone());
      expect([...counted.added.docIds]).toEqual([...a.snippetIds.slice(1), ...c.snippetIds, ...d.snippetIds]);
    } finally {
      db.close();
    }
  });

  it('leaves the answer to FTS5 after an in-place update (a new epoch)', async () => {
    await addArticle(t.db, articles(7, 1, 'x')[0]!);
    await fts.search({ text: '', terms: ['study'] }, 10);
    expect(fts.lastPath).toBe('impact+live');
    await t.db.$executeRawUnsafe(`UPDATE snippets SET text = 'rewritten in place' WHERE id = (SELECT min(id) FROM snippets)`);
    const terms = ['rewritten', 'study'];
    expect(await fts.search({ text: '', terms }, 10)).toEqual(await plain.search({ text: '', terms }, 10));
    expect(fts.lastPath).toBe('fts5');
  });
});
