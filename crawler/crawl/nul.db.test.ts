/**
 * A feed whose items carry NUL characters (and other control characters, and half a surrogate pair)
 * in their ids, titles, links and text, with an article page that carries them too: stored on every
 * database (PostgreSQL refuses NUL in text), the characters dropped, and the next check finds the
 * same items again instead of adding them twice. Runs on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { createTestDb, type TestDb } from '../../testing/db';
import { serveBody } from '../../testing/http-server';
import { articleHtml, paragraphsFor, sendHtml, startNewsSite, type NewsSite } from '../../testing/news-site';
import { addFeed, refreshFeedNow } from '../feeds/manage';
import { runCrawlOnce } from './run';

const provider = process.env.QUIN_TEST_DB ?? 'sqlite';
let t: TestDb;
let site: NewsSite;

beforeAll(async () => {
  t = await createTestDb({ ...TEST_CRAWLER_OVERRIDES });
  site = await startNewsSite();
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: 'Nul\u0000 feed',
    items: [
      { id: 'one\u0000', url: site.url('/nul/one'), title: 'First\u0000 story\u0001', date_published: '2024-02-05T09:00:00Z' },
      {
        id: 'two\u0000\ud800',
        title: 'Second\u0000 story',
        content_html: `<p>${paragraphsFor('/nul/two').join('\u0000 ')}</p>`,
        date_published: '2024-02-05T10:00:00Z',
      },
    ],
  };
  site.route(
    '/nul/feed.json',
    serveBody(() => Buffer.from(JSON.stringify(feed)), { type: 'application/feed+json', conditional: false }),
  );
  site.route('/nul/one', (_q, res) =>
    sendHtml(res, articleHtml({ title: 'First\u0000 story', paragraphs: paragraphsFor('/nul/one').map((p) => `${p}\u0000`) })),
  );
});
afterAll(async () => {
  await site?.close();
  await t?.cleanup();
});

describe(`a feed with NUL characters (${provider})`, () => {
  it('is stored without them, and a second check adds nothing', async () => {
    const feed = await addFeed(t.db, site.url('/nul/feed.json'), { intervalMinutes: 60 });
    const first = await runCrawlOnce(t.db, t.config);
    expect(first).toMatchObject({ feeds: 1, ok: 1, failed: 0, itemsNew: 2, articlesExtracted: 2 });
    const row = await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } });
    expect(row).toMatchObject({ title: 'Nul feed', consecutiveFailures: 0, lastError: null });
    const items = await t.db.feedItem.findMany({ where: { feedId: feed.id }, orderBy: { itemKey: 'asc' } });
    expect(items.map((i) => [i.itemKey, i.title, i.status])).toEqual([
      ['one', 'First story', 'stored'],
      ['two\ufffd', 'Second story', 'stored'],
    ]);
    const articles = await t.db.article.findMany({ where: { feedId: feed.id }, include: { snippets: true } });
    expect(articles).toHaveLength(2);
    for (const a of articles) {
      expect(a.text).not.toContain('\u0000');
      expect(a.text).not.toContain('\u0001');
      expect(a.snippets.length).toBeGreaterThan(0);
      for (const s of a.snippets) expect(s.text).not.toContain('\u0000');
    }

    await refreshFeedNow(t.db, feed.id);
    const second = await runCrawlOnce(t.db, t.config);
    expect(second).toMatchObject({ feeds: 1, failed: 0, itemsSeen: 2, itemsNew: 0 });
    expect(await t.db.feedItem.count({ where: { feedId: feed.id } })).toBe(2);
  });
});
