/**
 * Hostile feeds and pages, each its own feed in one crawl beside a good one (one bad feed must never stop or corrupt a crawl): for each,
 * the crawl goes on, the feed shows its error (also in `quin feeds list`), nothing is half-written,
 * and memory stays bounded. Runs on SQLite and PostgreSQL.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryInUse, TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { runQuin } from '../../testing/quin-cli';
import { createTestDb, type TestDb } from '../../testing/db';
import {
  compressionBomb,
  hang,
  hugeBody,
  redirect,
  send,
  serveBody,
  serveFile,
  startTestServer,
  trickle,
  type TestServer,
} from '../../testing/http-server';
import { articleHtml, paragraphsFor, sendHtml, startNewsSite, type NewsSite } from '../../testing/news-site';
import { sharedData } from '../../testing/shared-data';
import { runCrawlOnce, type CrawlRunSummary } from './run';
import { addFeed } from '../feeds/manage';
import { listFeedHealth, type FeedHealth } from '../feeds/health';

const testdata = (...p: string[]) => path.join(__dirname, '..', 'testdata', ...p);
const uolFile = sharedData('feeds', 'rss-parser', 'uolNoticias.rss');
const provider = process.env.QUIN_TEST_DB ?? 'sqlite';

let t: TestDb;
let site: NewsSite;
let guarded: TestServer;
let summary: CrawlRunSummary;
let memoryGrowth: number;
const feedIds: Record<string, number> = {};
let health: Record<string, FeedHealth>;

const GOOD = `<?xml version="1.0"?><rss version="2.0"><channel><title>Good feed</title>
  <item><title>Good story</title><link>/ext/good/story</link><pubDate>Mon, 05 Feb 2024 09:00:00 GMT</pubDate></item>
  <item><title>Empty page, own text</title><link>/empty-page</link><description>${paragraphsFor('/own-text').join(' ')}</description></item>
  <item><title>Empty page, no text</title><link>/empty-page?2</link></item>
  <item><title>Same story again</title><link>/ext/dup/story</link></item>
</channel></rss>`;
const SECOND = `<?xml version="1.0"?><rss version="2.0"><channel><title>Second feed</title>
  <item><title>Same story again</title><link>/ext/dup/story</link></item>
</channel></rss>`;

beforeAll(async () => {
  t = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, fetchTimeoutMs: 1500, maxResponseBytes: 1024 * 1024 });
  site = await startNewsSite();
  const abs = (xml: string) => Buffer.from(xml.replace(/<link>\//g, `<link>${site.origin}/`));
  site.route(
    '/feeds/good.rss',
    serveBody(() => abs(GOOD), { type: 'application/rss+xml' }),
  );
  site.route(
    '/feeds/second.rss',
    serveBody(() => abs(SECOND), { type: 'application/rss+xml' }),
  );
  site.route('/empty-page', serveFile(testdata('pages', 'empty.html'), { type: 'text/html' }));
  site.route('/feeds/malformed.xml', serveFile(testdata('malformed.xml')));
  // A quadratic entity blow-up: 5,000 references to a 5,000-character entity.
  site.route(
    '/feeds/entities.xml',
    send(
      `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "${'x'.repeat(5000)}">]><rss version="2.0"><channel><title>E</title><item><title>Blow-up</title><link>${site.origin}/ext/blow</link><description>${'&a;'.repeat(5000)}</description></item></channel></rss>`,
      { type: 'application/rss+xml' },
    ),
  );
  site.route('/feeds/html', serveFile(testdata('html-page.html'), { type: 'text/html; charset=utf-8' }));
  site.route('/feeds/404', send('not here', { status: 404 }));
  site.route('/feeds/410', send('gone for good', { status: 410 }));
  site.route('/feeds/500', send('internal error', { status: 500 }));
  site.route('/feeds/hang', hang);
  site.route('/feeds/trickle', trickle(100));
  site.route('/feeds/loop-a', redirect('/feeds/loop-b'));
  site.route('/feeds/loop-b', redirect('/feeds/loop-a'));
  site.route('/feeds/30mb', hugeBody(30 * 1024 * 1024));
  site.route('/feeds/gzip-bomb', compressionBomb(64 * 1024 * 1024));
  // A windows-1251 feed served as UTF-8, and an ISO-8859-1 feed that declares nothing.
  site.route('/feeds/wrong-charset', serveFile(testdata('encoding-windows-1251.xml'), { type: 'application/rss+xml; charset=utf-8' }));
  if (uolFile) site.serveRealFeed('/feeds/no-charset', uolFile, { type: 'application/rss+xml' });

  // Another host whose robots.txt forbids the feed, and pages of the good feed's kind.
  guarded = await startTestServer({
    '/robots.txt': serveFile(testdata('robots-forbid.txt'), { type: 'text/plain' }),
    '/private/feed.xml': serveBody(() => abs(GOOD), { type: 'application/rss+xml' }),
  });

  for (const [name, url] of [
    ['hang', site.url('/feeds/hang')],
    ['malformed', site.url('/feeds/malformed.xml')],
    ['entities', site.url('/feeds/entities.xml')],
    ['html', site.url('/feeds/html')],
    ['404', site.url('/feeds/404')],
    ['410', site.url('/feeds/410')],
    ['500', site.url('/feeds/500')],
    ['trickle', site.url('/feeds/trickle')],
    ['loop', site.url('/feeds/loop-a')],
    ['30mb', site.url('/feeds/30mb')],
    ['bomb', site.url('/feeds/gzip-bomb')],
    ['robots', guarded.url('/private/feed.xml')],
    ['wrong-charset', site.url('/feeds/wrong-charset')],
    ...(uolFile ? [['no-charset', site.url('/feeds/no-charset')]] : []),
    ['good', site.url('/feeds/good.rss')],
    ['second', site.url('/feeds/second.rss')],
  ] as const) {
    feedIds[name] = (await addFeed(t.db, url, { intervalMinutes: 60 })).id;
  }
  site.route('/ext/dup/story', (_q, res) => sendHtml(res, articleHtml({ title: 'Same story again', paragraphs: paragraphsFor('/dup') })));

  const before = memoryInUse();
  summary = await runCrawlOnce(t.db, t.config);
  memoryGrowth = memoryInUse() - before;
  health = Object.fromEntries((await listFeedHealth(t.db)).map((f) => [Object.keys(feedIds).find((k) => feedIds[k] === f.id)!, f]));
}, 120_000);

afterAll(async () => {
  await site?.close();
  await guarded?.close();
  await t?.cleanup();
});

describe(`hostile feeds (${provider})`, () => {
  it('do not stop the crawl: every feed was checked and the good ones stored their articles', () => {
    expect(summary.feeds).toBe(Object.keys(feedIds).length);
    expect(summary.failed).toBe(11);
    expect(health.good).toMatchObject({ status: 'active', consecutiveFailures: 0, lastError: null });
    expect(health.second).toMatchObject({ status: 'active', consecutiveFailures: 0 });
    // Good story, empty page with own text, and the story both feeds list (stored under one of them).
    expect(health.good!.articles + health.second!.articles).toBe(3);
  });

  it.each([
    ['entities', 'FEED_PARSE_ERROR', /declares XML entities/],
    ['html', 'FEED_PARSE_ERROR', /HTML page.*rss\/top\.xml/],
    ['404', 'FETCH_HTTP_STATUS', /HTTP 404/],
    ['410', 'FETCH_HTTP_STATUS', /HTTP 410/],
    ['500', 'FETCH_HTTP_STATUS', /HTTP 500/],
    ['hang', 'FETCH_TIMEOUT', /timeout/],
    ['trickle', 'FETCH_TIMEOUT', /timeout/],
    ['loop', 'FETCH_REDIRECTS', /redirect loop/],
    ['30mb', 'FETCH_TOO_LARGE', /larger than/],
    ['bomb', 'FETCH_TOO_LARGE', /decompression/],
    ['robots', 'FETCH_ROBOTS', /robots\.txt/],
  ])('%s: the feed shows the error and nothing of it is written', async (name, code, message) => {
    const f = health[name]!;
    expect(f).toMatchObject({ status: 'active', consecutiveFailures: 1, lastErrorCode: code, itemsSeen: 0, articles: 0 });
    expect(f.lastError).toMatch(message);
    expect(new Date(f.nextCheckAt).getTime()).toBeGreaterThan(Date.now());
    expect(await t.db.feedItem.count({ where: { feedId: feedIds[name] } })).toBe(0);
    const event = await t.db.crawlEvent.findFirstOrThrow({ where: { feedId: feedIds[name], kind: 'feed' } });
    expect(event).toMatchObject({ outcome: 'error', errorCode: code });
  });

  it('reads a malformed feed leniently and shows the warning; never stores entity references as text', async () => {
    expect(health.malformed).toMatchObject({
      status: 'active',
      consecutiveFailures: 0,
      itemsSeen: 1,
      parseWarning: expect.stringMatching(/read leniently/),
    });
    expect(await t.db.article.count({ where: { text: { contains: '&a;' } } })).toBe(0);
    expect(await t.db.feedItem.count({ where: { title: 'Blow-up' } })).toBe(0);
  });

  it('never asked the robots-forbidden host for the feed', () => {
    expect(guarded.requestsTo('/private/feed.xml')).toHaveLength(0);
    expect(guarded.requestsTo('/robots.txt')).toHaveLength(1);
  });

  it('reads a feed whose HTTP charset is wrong, and one that declares none', async () => {
    expect(health['wrong-charset']).toMatchObject({ status: 'active', title: 'Новости дня', itemsSeen: 1 });
    if (!uolFile) return;
    expect(health['no-charset']).toMatchObject({ status: 'active', title: 'UOL Noticias', itemsSeen: 15 });
    expect(await t.db.article.count({ where: { feedId: feedIds['no-charset'], title: { contains: 'simulações' } } })).toBe(1);
  });

  it('stores an item listed by two feeds once', async () => {
    expect(await t.db.article.count({ where: { title: 'Same story again' } })).toBe(1);
    const items = await t.db.feedItem.findMany({ where: { title: 'Same story again' }, orderBy: { status: 'asc' } });
    expect(items.map((i) => i.status)).toEqual(['duplicate', 'stored']);
    expect(items[0]!.articleId).toBe(items[1]!.articleId);
  });

  it('falls back to the item text when Readability finds nothing, and shows the item that has none', async () => {
    expect(await t.db.article.findFirstOrThrow({ where: { title: 'Empty page, own text' } })).toMatchObject({
      textSource: 'item_description',
      extractionStatus: 'fallback',
    });
    const failed = await t.db.feedItem.findFirstOrThrow({ where: { title: 'Empty page, no text' } });
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, articleId: null });
    expect(health.good!.articlesFailed).toBe(1);
  });

  it('leaves nothing half-written: every article has its snippets, every stored item its article', async () => {
    expect(await t.db.article.count({ where: { snippets: { none: {} } } })).toBe(0);
    expect(await t.db.feedItem.count({ where: { status: 'stored', articleId: null } })).toBe(0);
    expect(await t.db.article.count()).toBe(await t.db.feedItem.count({ where: { status: 'stored' } }));
  });

  it('keeps memory bounded (the 30 MB body and the 64 MB bomb never held)', () => {
    expect(memoryGrowth).toBeLessThan(48 * 1024 * 1024);
  });

  it('shows up in `quin feeds list` and `quin stats --json`', async () => {
    const r = await runQuin(['feeds', 'list'], {
      QUIN_DATA_DIR: t.dataDir,
      DATABASE_URL: t.config.databaseUrlResolved,
      QUIN_LOG_LEVEL: 'warn',
    });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    for (const [name, code] of [
      ['404', 'FETCH_HTTP_STATUS'],
      ['hang', 'FETCH_TIMEOUT'],
      ['bomb', 'FETCH_TOO_LARGE'],
      ['html', 'FEED_PARSE_ERROR'],
    ] as const) {
      const line = lines.find((l) => new RegExp(`^${feedIds[name]}\\s`).test(l));
      expect(line, name).toContain(code);
    }

    const stats = await runQuin(['stats', '--json'], {
      QUIN_DATA_DIR: t.dataDir,
      DATABASE_URL: t.config.databaseUrlResolved,
      QUIN_LOG_LEVEL: 'warn',
    });
    expect(stats.status, stats.stderr).toBe(0);
    const json = JSON.parse(stats.stdout) as {
      feeds: number;
      articles: number;
      snippets: number;
      feedHealth: { id: number; lastErrorCode: string | null }[];
    };
    expect(json).toMatchObject({
      feeds: Object.keys(feedIds).length,
      articles: await t.db.article.count(),
      snippets: await t.db.snippet.count(),
    });
    expect(json.feedHealth.find((f) => f.id === feedIds.bomb)).toMatchObject({ lastErrorCode: 'FETCH_TOO_LARGE' });
  });
});
