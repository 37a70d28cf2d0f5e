/**
 * A feed listing more new items than one check takes in (MAX_NEW_ITEMS_PER_CHECK): the newest
 * are taken in first, the rest at the following checks (the document is read again, not answered
 * 304), and nothing is taken twice. Runs on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { createTestDb, type TestDb } from '../../testing/db';
import { serveBody } from '../../testing/http-server';
import { startNewsSite, type NewsSite } from '../../testing/news-site';
import { addFeed, refreshFeedNow } from '../feeds/manage';
import { newestFirst } from './check-feed';
import { runCrawlOnce } from './run';

const provider = process.env.QUIN_TEST_DB ?? 'sqlite';
const N = 1200;
const CAP = 500;
let t: TestDb;
let site: NewsSite;

beforeAll(async () => {
  t = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, tuning: { maxNewItemsPerCheck: CAP, maxArticlesPerFeedRun: 5 } });
  site = await startNewsSite();
  // Oldest first in the document: the check must still take the newest first.
  const items = Array.from({ length: N }, (_, i) => ({
    id: `big-${i}`,
    title: `Item ${i}`,
    content_text: `Item ${i} says something long enough to be stored as its own article text.`,
    date_published: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
  }));
  const body = Buffer.from(JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'Big', items }));
  site.route(
    '/big.json',
    serveBody(() => body, { type: 'application/feed+json' }),
  );
});
afterAll(async () => {
  await site?.close();
  await t?.cleanup();
});

describe(`a feed with more new items than one check takes (${provider})`, () => {
  it('takes in the newest first, the rest at the following checks, each once', async () => {
    const feed = await addFeed(t.db, site.url('/big.json'), { intervalMinutes: 60 });
    const news: number[] = [];
    for (let check = 0; check < 4; check++) {
      if (check) await refreshFeedNow(t.db, feed.id);
      const s = await runCrawlOnce(t.db, t.config);
      expect(s).toMatchObject({ feeds: 1, failed: 0 });
      news.push(s.itemsNew);
      if (check === 0) {
        const taken = await t.db.feedItem.findMany({ where: { feedId: feed.id }, select: { itemKey: true } });
        const keys = new Set(taken.map((r) => r.itemKey));
        for (let i = N - CAP; i < N; i++) expect(keys.has(`big-${i}`)).toBe(true);
        const row = await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } });
        expect(row.etag).toBeNull();
        expect(row.parseWarning).toContain(`more than ${CAP} new items`);
      }
    }
    expect(news).toEqual([CAP, CAP, N - 2 * CAP, 0]);
    expect(await t.db.feedItem.count({ where: { feedId: feed.id } })).toBe(N);
    const row = await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } });
    expect(row.etag).not.toBeNull();
    expect(row.parseWarning).toBeNull();
  });

  it('a key longer than the column holds is looked up as stored: the next check adds nothing', async () => {
    const long = `https://e.test/${'k'.repeat(3000)}`;
    const doc = {
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Long',
      items: [{ id: long, content_text: 'A long key item with enough text.' }],
    };
    site.route(
      '/long.json',
      serveBody(() => Buffer.from(JSON.stringify(doc)), { type: 'application/feed+json', conditional: false }),
    );
    const feed = await addFeed(t.db, site.url('/long.json'), { intervalMinutes: 60 });
    expect(await runCrawlOnce(t.db, t.config, { feedIds: [feed.id] })).toMatchObject({ failed: 0, itemsNew: 1 });
    expect(await runCrawlOnce(t.db, t.config, { feedIds: [feed.id] })).toMatchObject({ failed: 0, itemsNew: 0 });
  });

  it('orders items newest first, undated ones last in feed order', () => {
    const item = (key: string, published: string | null) => ({ key, published: published ? new Date(published) : null }) as never;
    const order = newestFirst([
      item('a', null),
      item('b', '2024-01-01'),
      item('c', '2024-02-01'),
      item('d', null),
      item('b', '2024-01-01'),
    ]);
    expect(order.map((i: { key: string }) => i.key)).toEqual(['c', 'b', 'a', 'd']);
  });
});
