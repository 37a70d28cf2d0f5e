/**
 * The pipeline's snippet reads on both databases: the raw statements (on SQLite through the client's
 * direct reader, on PostgreSQL through the client) give what the generated client gives for the same
 * rows, dates as dates and ids as numbers; rows written after the reader opened are seen; ids the
 * database does not have are absent; and the reader is closed with the client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addArticle } from '../indexer/test-corpus';
import { sqliteReader } from '../lib/db/client';
import { createTestDb, type TestDb } from '../testing/db';
import { loadMeta, loadMetaAndTexts, loadRows, loadTexts } from './snippets';

let t: TestDb;
let ids: number[] = [];

const STORY = {
  key: 'glacier',
  title: 'Swiss glaciers lost a tenth of their ice',
  source: 'alpine-news',
  publishedAt: new Date('2024-09-30T08:15:00Z'),
  sentences: ['Swiss glaciers lost a tenth of their ice in two years.', 'Scientists measured the loss.', 'It was the fastest on record.'],
};

describe('snippet reads for the pipeline', () => {
  beforeAll(async () => {
    t = await createTestDb();
    ids = (await addArticle(t.db, STORY)).snippetIds;
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it('reads what the generated client reads, for known ids only', async () => {
    const want = await t.db.snippet.findMany({
      where: { id: { in: ids } },
      include: { article: { select: { canonicalUrl: true } } },
    });
    const asked = [...ids, 987_654];
    const [meta, both, texts, rows] = await Promise.all([
      loadMeta(t.db, asked, t.provider),
      loadMetaAndTexts(t.db, asked, t.provider),
      loadTexts(t.db, asked, t.provider),
      loadRows(t.db, asked, t.provider),
    ]);
    expect([...meta.keys()].sort()).toEqual([...ids].sort());
    expect(ids.length).toBeGreaterThan(0);
    for (const w of want) {
      const m = { id: w.id, articleId: w.articleId, source: 'alpine-news', publishedAt: STORY.publishedAt, createdAt: w.createdAt };
      expect(meta.get(w.id)).toEqual(m);
      expect(both.meta.get(w.id)).toEqual(m);
      expect(both.texts.get(w.id)).toEqual({ id: w.id, title: w.title, text: w.text });
      expect(texts.get(w.id)).toEqual({ id: w.id, title: w.title, text: w.text });
      expect(rows.get(w.id)).toEqual({
        ...m,
        position: w.position,
        sentenceStart: w.sentenceStart,
        sentenceEnd: w.sentenceEnd,
        text: w.text,
        sentenceSpans: w.sentenceSpans,
        title: w.title,
        url: w.article.canonicalUrl,
      });
    }
  });

  it('sees rows written after its first read', async () => {
    await loadMeta(t.db, ids, t.provider);
    const later = (await addArticle(t.db, { ...STORY, key: 'glacier-2', publishedAt: undefined })).snippetIds;
    const meta = await loadMeta(t.db, later, t.provider);
    expect([...meta.keys()].sort()).toEqual([...later].sort());
    expect(meta.get(later[0]!)!.publishedAt).toBeNull();
  });

  it.runIf(process.env.QUIN_TEST_DB !== 'postgres')('SQLite: one direct reader per client, closed with it', async () => {
    const reader = sqliteReader(t.db)!;
    expect(reader.open).toBe(true);
    expect(sqliteReader(t.db)).toBe(reader);
    await t.db.$disconnect();
    expect(reader.open).toBe(false);
    // A client used again after a disconnect reconnects, and so does its reader.
    expect((await loadMeta(t.db, ids, t.provider)).size).toBe(ids.length);
    expect(sqliteReader(t.db)).not.toBe(reader);
  });

  it.runIf(process.env.QUIN_TEST_DB === 'postgres')('PostgreSQL: no direct reader', () => {
    expect(sqliteReader(t.db)).toBeNull();
  });
});
