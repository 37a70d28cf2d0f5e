import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../lib/db/client';
import { createTestDb, type TestDb } from '../../testing/db';
import { storeArticle, storeArticles, type ArticleInput } from './articles';

const WINDOW = { size: 5, stride: 3, minChars: 10 };
let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => t?.cleanup());

function article(url: string, text: string, extra: Partial<ArticleInput> = {}): ArticleInput {
  return {
    canonicalUrl: url,
    originalUrl: url,
    title: 'A title',
    source: 'Test',
    publishedAt: new Date('2024-05-01T10:00:00Z'),
    publishedAtSource: 'item',
    fetchedAt: new Date('2024-05-02T00:00:00Z'),
    textSource: 'readability',
    extractionStatus: 'ok',
    text,
    ...extra,
  };
}
const TEXT = Array.from({ length: 9 }, (_, i) => `Sentence ${i} says something about the news.`).join(' ');

describe(`storeArticles (${process.env.QUIN_TEST_DB ?? 'sqlite'})`, () => {
  it('stores an article with its snippets and provenance', async () => {
    const r = await storeArticle(t.db, article('https://n.test/a', TEXT), WINDOW);
    expect(r).toMatchObject({ outcome: 'created', snippets: 3 });
    const snippets = await t.db.snippet.findMany({ where: { articleId: r.articleId! }, orderBy: { position: 'asc' } });
    expect(snippets.map((s) => [s.sentenceStart, s.sentenceEnd])).toEqual([
      [0, 5],
      [3, 8],
      [6, 9],
    ]);
    expect(snippets[0]).toMatchObject({ title: 'A title', source: 'Test', publishedAt: new Date('2024-05-01T10:00:00Z') });
  });

  it('skips an unchanged article and replaces the snippets of a changed one', async () => {
    expect((await storeArticle(t.db, article('https://n.test/a', TEXT), WINDOW)).outcome).toBe('unchanged');
    const r = await storeArticle(t.db, article('https://n.test/a', 'Only one sentence is left in this version.'), WINDOW);
    expect(r).toMatchObject({ outcome: 'updated', snippets: 1 });
    expect(await t.db.snippet.count({ where: { articleId: r.articleId! } })).toBe(1);
    expect(await t.db.article.count({ where: { canonicalUrl: 'https://n.test/a' } })).toBe(1);
  });

  it('does not store an article that yields no snippet', async () => {
    const r = await storeArticle(t.db, article('https://n.test/empty', 'Hi.'), WINDOW);
    expect(r.outcome).toBe('empty');
    expect(await t.db.article.count({ where: { canonicalUrl: 'https://n.test/empty' } })).toBe(0);
  });

  it('de-duplicates within one batch', async () => {
    const rs = await storeArticles(t.db, [article('https://n.test/d', TEXT), article('https://n.test/d', TEXT)], WINDOW);
    expect(rs.map((r) => r.outcome)).toEqual(['created', 'unchanged']);
  });

  it('writes nothing of a batch that fails part-way (one transaction)', async () => {
    const before = await t.db.article.count();
    const bad = article('https://n.test/bad', TEXT, { feedId: 999_999 }); // violates the feed foreign key
    await expect(storeArticles(t.db, [article('https://n.test/ok', TEXT), bad], WINDOW)).rejects.toThrow();
    expect(await t.db.article.count()).toBe(before);
    expect(await t.db.snippet.count({ where: { article: { canonicalUrl: 'https://n.test/ok' } } })).toBe(0);
  });

  it('treats a concurrent insert of the same canonical URL by another process as a duplicate', async () => {
    const others = [createDb(t.config), createDb(t.config), createDb(t.config)];
    try {
      const results = await Promise.all([t.db, ...others].map((db) => storeArticle(db, article('https://n.test/race', TEXT), WINDOW)));
      expect(results.map((r) => r.outcome).sort()).toEqual(['created', 'unchanged', 'unchanged', 'unchanged']);
      expect(new Set(results.map((r) => r.articleId)).size).toBe(1);
      expect(await t.db.snippet.count({ where: { articleId: results[0]!.articleId! } })).toBe(3);
    } finally {
      await Promise.all(others.map((db) => db.$disconnect()));
    }
  });

  it('deletes snippets with their article', async () => {
    const r = await storeArticle(t.db, article('https://n.test/del', TEXT), WINDOW);
    await t.db.article.delete({ where: { id: r.articleId! } });
    expect(await t.db.snippet.count({ where: { articleId: r.articleId! } })).toBe(0);
  });
});
