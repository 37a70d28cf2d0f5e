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

  it('writes a mixed batch as one article at a time would: results in order, every field of every snippet', async () => {
    const started = Date.now();
    await storeArticle(t.db, article('https://n.test/m-old', TEXT), WINDOW);
    const batch = [
      article('https://n.test/m1', TEXT, { title: 'First  new ', source: 'Wire' }),
      article('https://n.test/m-old', 'A changed text with a single sentence in it.'),
      article('https://n.test/m2', TEXT, { publishedAt: null, publishedAtSource: 'unknown' }),
      article('https://n.test/m2', TEXT, { publishedAt: null, publishedAtSource: 'unknown' }),
      article('https://n.test/m3', 'Hi.'),
    ];
    const rs = await storeArticles(t.db, batch, WINDOW);
    expect(rs.map((r) => [r.outcome, r.snippets])).toEqual([
      ['created', 3],
      ['updated', 1],
      ['created', 3],
      ['unchanged', 0],
      ['empty', 0],
    ]);
    expect(rs[3]!.articleId).toBe(rs[2]!.articleId);
    const rows = await t.db.snippet.findMany({ where: { articleId: rs[0]!.articleId! }, orderBy: { position: 'asc' } });
    expect(rows.map((s) => [s.position, s.sentenceStart, s.sentenceEnd, s.title, s.source])).toEqual([
      [0, 0, 5, 'First new', 'Wire'],
      [1, 3, 8, 'First new', 'Wire'],
      [2, 6, 9, 'First new', 'Wire'],
    ]);
    const spans = JSON.parse(rows[1]!.sentenceSpans) as [number, number][];
    expect(spans).toHaveLength(5);
    expect(rows[1]!.text.slice(spans[0]![0], spans[0]![1])).toBe('Sentence 3 says something about the news.');
    expect(rows[0]!.publishedAt).toEqual(new Date('2024-05-01T10:00:00Z'));
    expect(rows[0]!.createdAt.getTime()).toBeGreaterThanOrEqual(started - 1000);
    expect(rows[0]!.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const changed = await t.db.snippet.findMany({ where: { articleId: rs[1]!.articleId! } });
    expect(changed.map((s) => [s.text, s.publishedAt])).toEqual([
      ['A changed text with a single sentence in it.', new Date('2024-05-01T10:00:00Z')],
    ]);
    const undated = await t.db.snippet.findMany({ where: { articleId: rs[2]!.articleId! } });
    expect(undated.map((s) => s.publishedAt)).toEqual([null, null, null]);
    // Dates compare in the database as the client writes its parameters.
    const at = new Date('2024-05-01T10:00:00Z');
    expect(await t.db.snippet.count({ where: { articleId: rs[0]!.articleId!, publishedAt: { gte: at, lte: at } } })).toBe(3);
    expect(await t.db.snippet.count({ where: { articleId: rs[0]!.articleId!, publishedAt: { gt: at } } })).toBe(0);
  });

  it('stores a batch larger than one statement holds (2,100 articles, 6,300 snippets)', async () => {
    const batch = Array.from({ length: 2_100 }, (_, i) => article(`https://n.test/big/${i}`, TEXT, { title: `Big ${i}` }));
    const rs = await storeArticles(t.db, batch, WINDOW);
    expect(rs.every((r) => r.outcome === 'created' && r.snippets === 3)).toBe(true);
    expect(new Set(rs.map((r) => r.articleId)).size).toBe(2_100);
    const articles = await t.db.article.findMany({ where: { id: { in: rs.map((r) => r.articleId!) } }, select: { id: true, title: true } });
    const titleOf = new Map(articles.map((a) => [a.id, a.title]));
    expect(rs.map((r) => titleOf.get(r.articleId!))).toEqual(batch.map((a) => a.title));
    expect(await t.db.snippet.count({ where: { title: { startsWith: 'Big ' } } })).toBe(6_300);
    const last = await t.db.snippet.findMany({ where: { articleId: rs[2_099]!.articleId! }, select: { title: true, position: true } });
    expect(last).toEqual([0, 1, 2].map((position) => ({ title: 'Big 2099', position })));
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
