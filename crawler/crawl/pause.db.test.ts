/**
 * A server that asks for a pause (429/503 with a long Retry-After) never stalls the crawl: the real
 * `quin crawl --once` against one host whose feed is "in maintenance" for a day (503 + Retry-After:
 * 86400), a healthy feed on the same host and a feed on another host. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { send, startTestServer, type TestServer } from '../../testing/http-server';
import { articleHtml, paragraphsFor, sendHtml, startNewsSite, type NewsSite } from '../../testing/news-site';
import { runQuin } from '../../testing/quin-cli';
import { TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { runCrawlOnce } from './run';
import { addFeed, refreshFeedNow } from '../feeds/manage';
import { createHttpClient } from '../http';

const provider = process.env.QUIN_TEST_DB ?? 'sqlite';
const DAY_MS = 86_400_000;

let t: TestDb;
let site: NewsSite;
let other: TestServer;
let env: Record<string, string>;

function feedXml(name: string, origin: string, n: number): string {
  const items = Array.from(
    { length: n },
    (_, i) =>
      `<item><title>${name} story ${i}</title><link>${origin}/ext/${name}/story-${i}</link><pubDate>Mon, 05 Feb 2024 0${i}:00:00 GMT</pubDate></item>`,
  );
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>${name}</title>${items.join('')}</channel></rss>`;
}

beforeAll(async () => {
  t = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, fetchTimeoutMs: 20_000 });
  site = await startNewsSite();
  other = await startTestServer();
  other.route('*', (req, res) => {
    if ((req.url ?? '').startsWith('/ext/')) return sendHtml(res, articleHtml({ title: 'Elsewhere', paragraphs: paragraphsFor(req.url!) }));
    res.writeHead(404).end();
  });
  env = {
    QUIN_DATA_DIR: t.dataDir,
    DATABASE_URL: t.config.databaseUrlResolved,
    QUIN_ALLOW_PRIVATE_HOSTS: 'true',
    // The product's own politeness and timeouts, not the tests' shortcuts.
    QUIN_HOST_DELAY_MS: '1000',
    QUIN_FETCH_TIMEOUT_MS: '30000',
    QUIN_LOG_LEVEL: 'warn',
  };
});
afterAll(async () => {
  await site?.close();
  await other?.close();
  await t?.cleanup();
});

describe(`a host that asks for a pause (${provider})`, () => {
  it('`quin crawl --once` skips the paused feed, checks the healthy feed on the same host and the other host, and ends within a minute', async () => {
    site.route('/maintenance.rss', send('down for maintenance', { status: 503, headers: { 'Retry-After': '86400' } }));
    site.route('/healthy.rss', send(feedXml('healthy', site.origin, 3), { type: 'application/rss+xml' }));
    other.route('/other.rss', send(feedXml('other', other.origin, 3), { type: 'application/rss+xml' }));
    // The paused feed comes first, so that the healthy one on its host is checked after the 503.
    const paused = await addFeed(t.db, site.url('/maintenance.rss'), { intervalMinutes: 60 });
    const healthy = await addFeed(t.db, site.url('/healthy.rss'), { intervalMinutes: 60 });
    const elsewhere = await addFeed(t.db, other.url('/other.rss'), { intervalMinutes: 60 });

    // Killed after 150 s (process start-up included, slow on a loaded machine): before the fix it
    // never ended. The crawl itself takes seconds: the pause is not waited on.
    const r = await runQuin(['crawl', '--once', '--json'], env, 150_000);
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as { durationMs: number };
    expect(summary).toMatchObject({ feeds: 3, ok: 2, failed: 1, articlesExtracted: 6 });
    expect(summary.durationMs).toBeLessThan(30_000);

    for (const id of [healthy.id, elsewhere.id]) {
      const row = await t.db.feed.findUniqueOrThrow({ where: { id } });
      expect(row.lastSuccessAt, row.url).not.toBeNull();
      expect(await t.db.article.count({ where: { feedId: id } })).toBe(3);
    }
    const row = await t.db.feed.findUniqueOrThrow({ where: { id: paused.id } });
    expect(row).toMatchObject({ lastHttpStatus: 503, consecutiveFailures: 1, lastErrorCode: 'FETCH_HTTP_STATUS' });
    // Rescheduled for when the server said it would be back (the backoff cap is a day too).
    expect(row.nextCheckAt.getTime() - Date.now()).toBeGreaterThan(DAY_MS - 120_000);
    expect(site.requestsTo('/maintenance.rss')).toHaveLength(1);
  }, 180_000);

  it("429 with a long Retry-After: the host's other feeds are skipped at once and rescheduled, not counted as failures; other hosts go on", async () => {
    const busy = await startTestServer({
      '/a.rss': send('slow down', { status: 429, headers: { 'Retry-After': '86400' } }),
      '/b.rss': send(feedXml('b', 'http://unused.invalid', 1), { type: 'application/rss+xml' }),
      '/c.rss': send(feedXml('c', 'http://unused.invalid', 1), { type: 'application/rss+xml' }),
    });
    try {
      const a = await addFeed(t.db, busy.url('/a.rss'), { intervalMinutes: 60 });
      const b = await addFeed(t.db, busy.url('/b.rss'), { intervalMinutes: 60 });
      const c = await addFeed(t.db, busy.url('/c.rss'), { intervalMinutes: 60 });
      other.route('/other2.rss', send(feedXml('other2', other.origin, 1), { type: 'application/rss+xml' }));
      const d = await addFeed(t.db, other.url('/other2.rss'), { intervalMinutes: 60 });
      // One transport for the run, as the worker has: the pause is remembered across feeds.
      const http = createHttpClient({ ...t.config, hostDelayMs: 500 });
      const t0 = Date.now();
      const s = await runCrawlOnce(t.db, t.config, { feedIds: [a.id, b.id, c.id, d.id], http });
      await http.close();
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(s).toMatchObject({ feeds: 4, ok: 1, failed: 1, paused: 2 });
      expect(busy.requestsTo('/b.rss')).toHaveLength(0);
      expect(busy.requestsTo('/c.rss')).toHaveLength(0);
      for (const id of [b.id, c.id]) {
        const row = await t.db.feed.findUniqueOrThrow({ where: { id } });
        expect(row).toMatchObject({ status: 'active', consecutiveFailures: 0, lastErrorCode: 'FETCH_PAUSED' });
        expect(row.nextCheckAt.getTime() - Date.now()).toBeGreaterThan(DAY_MS - 120_000);
        expect(await t.db.crawlEvent.findFirst({ where: { feedId: id }, orderBy: { id: 'desc' } })).toMatchObject({ outcome: 'skipped' });
      }
      expect((await t.db.feed.findUniqueOrThrow({ where: { id: d.id } })).lastSuccessAt).not.toBeNull();
    } finally {
      await busy.close();
    }
  }, 60_000);

  it('leaves the article pages of a paused host pending for the next check, without using up their attempts', async () => {
    let pagesPaused = true;
    const pages = await startTestServer({});
    pages.route('*', (req, res) => {
      if (pagesPaused) return void res.writeHead(429, { 'Retry-After': '3600' }).end('slow down');
      sendHtml(res, articleHtml({ title: 'Page', paragraphs: paragraphsFor(req.url ?? '/') }));
    });
    try {
      site.route('/links-elsewhere.rss', send(feedXml('elsewhere', pages.origin, 3), { type: 'application/rss+xml' }));
      const feed = await addFeed(t.db, site.url('/links-elsewhere.rss'), { intervalMinutes: 60 });
      const http = createHttpClient(t.config);
      const s = await runCrawlOnce(t.db, t.config, { feedIds: [feed.id], http });
      expect(s).toMatchObject({ ok: 1, articlesExtracted: 0 });
      // robots.txt answered 429: the whole host paused; no page asked for, every item still pending.
      const items = await t.db.feedItem.findMany({ where: { feedId: feed.id } });
      expect(items.map((i) => [i.status, i.attempts])).toEqual([
        ['pending', 0],
        ['pending', 0],
        ['pending', 0],
      ]);
      pagesPaused = false;
      await http.close();
      await refreshFeedNow(t.db, feed.id);
      const again = await runCrawlOnce(t.db, t.config, { feedIds: [feed.id] });
      expect(again).toMatchObject({ ok: 1, articlesExtracted: 3 });
    } finally {
      await pages.close();
    }
  }, 60_000);
});
