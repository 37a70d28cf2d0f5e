/**
 * A feed that takes longer to read than the parse deadline: the check fails with a plain reason
 * ("took too long to read"), the feed is retried later with back-off, and the feed beside it is
 * stored as usual. Runs on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { createTestDb, type TestDb } from '../../testing/db';
import { serveBody } from '../../testing/http-server';
import { articleHtml, paragraphsFor, sendHtml, startNewsSite, type NewsSite } from '../../testing/news-site';
import { createParseThread, type ParseThread } from '../feeds/parse-thread';
import { addFeed } from '../feeds/manage';
import { listFeedHealth } from '../feeds/health';
import { runCrawlOnce } from './run';

const provider = process.env.QUIN_TEST_DB ?? 'sqlite';
let t: TestDb;
let site: NewsSite;
const real = createParseThread();
/** The real thread, with a deadline that only the slow feed's document exceeds. */
const parser: ParseThread = {
  parseFeed: (body, opts) => real.parseFeed(body, opts, body.length > 1_000_000 ? 20 : 20_000),
  extractArticle: (html, url, now) => real.extractArticle(html, url, now),
  parseOpml: (file) => real.parseOpml(file),
  close: () => real.close(),
};

beforeAll(async () => {
  t = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, maxResponseBytes: 10 * 1024 * 1024 });
  site = await startNewsSite();
  const items = Array.from({ length: 20_000 }, (_, i) => ({ id: `s${i}`, title: `Slow ${i}`, content_html: `<p>${'x '.repeat(20)}</p>` }));
  const slow = Buffer.from(JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'Slow', items }));
  site.route(
    '/slow.json',
    serveBody(() => slow, { type: 'application/feed+json' }),
  );
  const good = `<?xml version="1.0"?><rss version="2.0"><channel><title>Good</title><item><title>Good story</title><link>${site.origin}/ext/good/one</link></item></channel></rss>`;
  site.route(
    '/good.rss',
    serveBody(() => Buffer.from(good), { type: 'application/rss+xml' }),
  );
  site.route('/ext/good/one', (_q, res) => sendHtml(res, articleHtml({ title: 'Good story', paragraphs: paragraphsFor('/good/one') })));
});
afterAll(async () => {
  await parser.close();
  await site?.close();
  await t?.cleanup();
});

describe(`a feed that takes too long to read (${provider})`, () => {
  it('fails with a plain reason, is retried later with back-off, and the other feed is stored', async () => {
    const slow = await addFeed(t.db, site.url('/slow.json'), { intervalMinutes: 30 });
    const good = await addFeed(t.db, site.url('/good.rss'), { intervalMinutes: 30 });
    const before = Date.now();
    const summary = await runCrawlOnce(t.db, t.config, { parser });
    expect(summary).toMatchObject({ feeds: 2, ok: 1, failed: 1 });
    const row = await t.db.feed.findUniqueOrThrow({ where: { id: slow.id } });
    expect(row).toMatchObject({ lastErrorCode: 'FEED_PARSE_TIMEOUT', consecutiveFailures: 1 });
    expect(row.lastError).toContain('took too long to read');
    expect(row.nextCheckAt.getTime()).toBeGreaterThanOrEqual(before + 29 * 60_000);
    const health = (await listFeedHealth(t.db)).find((f) => f.id === slow.id)!;
    expect(health.state).toBe('failing');
    expect(await t.db.article.count({ where: { feedId: good.id } })).toBe(1);
  });
});
