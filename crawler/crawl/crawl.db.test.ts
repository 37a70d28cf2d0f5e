/**
 * Crawling a local server that serves real feed files (links rewritten to it) and article pages:
 * provenance and dates stored, conditional GET on the second crawl, de-duplication across feeds,
 * fallbacks, items without links or dates, scheduling and leases. Runs on SQLite and PostgreSQL.
 */
import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../lib/db/client';
import { TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { createTestDb, type TestDb } from '../../testing/db';
import { send, serveBody, serveFile } from '../../testing/http-server';
import { articleHtml, paragraphsFor, sendHtml, startNewsSite, type NewsSite } from '../../testing/news-site';
import { sharedData, SHARED_MISSING } from '../../testing/shared-data';
import { runCrawlOnce } from './run';
import { parseFeed } from '../feeds/parser';
import { addFeed, pauseFeed, refreshFeedNow, resumeFeed } from '../feeds/manage';
import { crawlStats, ingestionPerDay, listFeedHealth, recentCrawlEvents } from '../feeds/health';
import { acquireLease } from '../schedule/lease';
import { probeFeed } from '../feeds/probe';

const realFeeds = sharedData('feeds', 'rss-parser');
const testdata = (...p: string[]) => path.join(__dirname, '..', 'testdata', ...p);
const provider = process.env.QUIN_TEST_DB ?? 'sqlite';

let t: TestDb;
let site: NewsSite;

beforeAll(async () => {
  // Generous timeouts: the pages are served by this same process, which is busy extracting.
  t = await createTestDb({
    ...TEST_CRAWLER_OVERRIDES,
    fetchTimeoutMs: 20_000,
    tuning: { maxArticlesPerFeedRun: 100, connectTimeoutMs: 10_000 },
  });
  site = await startNewsSite();
});
afterAll(async () => {
  await site?.close();
  await t?.cleanup();
});

/** Serves one of this project's feed fixtures with its news.test links pointing at the local site. */
function serveFixtureFeed(route: string, name: string): void {
  const body = Buffer.from(fs.readFileSync(testdata(name), 'utf8').replaceAll('https://news.test', site.origin));
  site.route(
    route,
    serveBody(() => body, { type: 'application/rss+xml' }),
  );
}

async function articlesWithoutSnippets(): Promise<number> {
  return t.db.article.count({ where: { snippets: { none: {} } } });
}

describe.skipIf(!realFeeds)(`crawling real feed files from a local server (${provider}) ${realFeeds ? '' : SHARED_MISSING}`, () => {
  let guardianId: number;
  let uolId: number;

  it('stores every article with its provenance and the item dates', async () => {
    site.serveRealFeed('/feeds/guardian.rss', path.join(realFeeds!, 'guardian.rss'));
    // uolNoticias declares no charset anywhere (ISO-8859-1 bytes) and has no version attribute.
    site.serveRealFeed('/feeds/uol.rss', path.join(realFeeds!, 'uolNoticias.rss'), { type: 'application/rss+xml' });
    guardianId = (await addFeed(t.db, site.url('/feeds/guardian.rss'), { intervalMinutes: 30 })).id;
    uolId = (await addFeed(t.db, site.url('/feeds/uol.rss'), { intervalMinutes: 30 })).id;

    const summary = await runCrawlOnce(t.db, t.config);
    expect(summary).toMatchObject({ feeds: 2, ok: 2, failed: 0, itemsSeen: 55 + 15, itemsNew: 55 + 15 });

    const guardian = await parseFeed(fs.readFileSync(path.join(realFeeds!, 'guardian.rss')), { url: 'https://www.theguardian.com/' });
    const distinctLinks = new Set(guardian.items.map((i) => i.link)).size;
    expect(await t.db.article.count({ where: { feedId: guardianId } })).toBe(distinctLinks);
    expect(await t.db.article.count({ where: { feedId: uolId } })).toBe(15);
    expect(await articlesWithoutSnippets()).toBe(0);

    const first = guardian.items[0]!;
    const local = (u: string) => u.replace('https://www.theguardian.com', `${site.origin}/ext/www.theguardian.com`);
    const stored = await t.db.article.findFirstOrThrow({ where: { originalUrl: local(first.link!) } });
    expect(stored).toMatchObject({
      feedId: guardianId,
      title: first.title,
      source: 'The Guardian',
      publishedAt: new Date('2018-01-31T07:26:05Z'),
      publishedAtSource: 'item',
      textSource: 'readability',
      extractionStatus: 'ok',
      canonicalUrl: stored.originalUrl,
      externalId: local(first.guid!),
    });
    expect(stored.text).toContain(paragraphsFor(new URL(stored.originalUrl).pathname)[0]);
    expect(stored.text).not.toMatch(/Trending|All rights reserved|scripts must not run/);
    const snippet = await t.db.snippet.findFirstOrThrow({ where: { articleId: stored.id, position: 0 } });
    expect(snippet).toMatchObject({
      title: first.title,
      source: 'The Guardian',
      publishedAt: new Date('2018-01-31T07:26:05Z'),
      sentenceStart: 0,
    });

    const uol = await t.db.article.findFirstOrThrow({ where: { feedId: uolId, title: { startsWith: 'Ibope' } } });
    expect(uol).toMatchObject({
      title: 'Ibope: Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno',
      publishedAt: new Date('2018-09-24T22:42:40Z'),
      source: 'UOL Noticias',
    });

    const [health] = (await listFeedHealth(t.db)).filter((f) => f.id === guardianId);
    expect(health).toMatchObject({
      status: 'active',
      consecutiveFailures: 0,
      lastHttpStatus: 200,
      itemsSeen: 55,
      itemsNew: 55,
      articlesExtracted: distinctLinks,
      articlesFailed: 0,
      pendingItems: 0,
    });
    expect(new Date(health!.nextCheckAt).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    const feedEvents = await recentCrawlEvents(t.db, 10, { kind: 'feed' });
    expect(feedEvents.map((e) => e.outcome)).toEqual(['ok', 'ok']);
    expect(feedEvents.find((e) => e.feedId === guardianId)).toMatchObject({
      itemsSeen: 55,
      itemsNew: 55,
      articlesExtracted: distinctLinks,
      httpStatus: 200,
    });
    expect(await t.db.crawlEvent.count({ where: { kind: 'article', outcome: 'ok' } })).toBe(distinctLinks + 15);
  });

  it('sends conditional requests on the second crawl, gets 304 and adds nothing', async () => {
    const articles = await t.db.article.count();
    const snippets = await t.db.snippet.count();
    const pages = site.pageRequests();
    await refreshFeedNow(t.db, guardianId);
    await refreshFeedNow(t.db, uolId);
    const summary = await runCrawlOnce(t.db, t.config);
    expect(summary).toMatchObject({ feeds: 2, notModified: 2, itemsNew: 0, articlesExtracted: 0 });
    const second = site.requestsTo('/feeds/guardian.rss')[1]!;
    expect(second.headers['if-none-match']).toBeTruthy();
    expect(second.headers['if-modified-since']).toBe('Mon, 01 Jan 2024 00:00:00 GMT');
    expect(await t.db.article.count()).toBe(articles);
    expect(await t.db.snippet.count()).toBe(snippets);
    expect(site.pageRequests()).toBe(pages);
    expect((await recentCrawlEvents(t.db, 1, { feedId: guardianId }))[0]).toMatchObject({ outcome: 'not_modified', httpStatus: 304 });
  });

  it('adds nothing when a server ignores conditional requests either', async () => {
    site.serveRealFeed('/feeds/reddit.rss', path.join(realFeeds!, 'reddit.rss'), { conditional: false });
    const feed = await addFeed(t.db, site.url('/feeds/reddit.rss'), { intervalMinutes: 30 });
    await runCrawlOnce(t.db, t.config, { feedIds: [feed.id] });
    const articles = await t.db.article.count();
    const pages = site.pageRequests();
    const again = await runCrawlOnce(t.db, t.config, { feedIds: [feed.id] });
    expect(again).toMatchObject({ ok: 1, itemsSeen: 24, itemsNew: 0, articlesExtracted: 0 });
    expect(await t.db.article.count()).toBe(articles);
    expect(site.pageRequests()).toBe(pages);
  });

  it('stores an article listed by two feeds once, without fetching it twice', async () => {
    // The same RDF file under a second URL: every item is a duplicate of the first feed's.
    site.serveRealFeed('/feeds/science-a.rdf', path.join(realFeeds!, 'rss-1.rss'));
    site.serveRealFeed('/feeds/science-b.rdf', path.join(realFeeds!, 'xml2js-options.rss'));
    const a = await addFeed(t.db, site.url('/feeds/science-a.rdf'), { intervalMinutes: 30 });
    const b = await addFeed(t.db, site.url('/feeds/science-b.rdf'), { intervalMinutes: 30 });
    await runCrawlOnce(t.db, t.config, { feedIds: [a.id] });
    const pages = site.pageRequests();
    const stored = await t.db.article.count({ where: { feedId: a.id } });
    expect(stored).toBeGreaterThan(0);
    const r = await runCrawlOnce(t.db, t.config, { feedIds: [b.id] });
    expect(r).toMatchObject({ ok: 1, itemsNew: 69, articlesExtracted: 0 });
    expect(site.pageRequests()).toBe(pages);
    expect(await t.db.article.count({ where: { feedId: b.id } })).toBe(0);
    expect(await t.db.feedItem.count({ where: { feedId: b.id, status: 'duplicate', articleId: { not: null } } })).toBe(69);
    // RDF items carry dc:date in -07:00.
    const dated = await t.db.article.findFirstOrThrow({ where: { feedId: a.id, title: 'Food for fungi' } });
    expect(dated).toMatchObject({ publishedAt: new Date('2017-06-15T17:29:47Z'), publishedAtSource: 'item', author: 'Hines, P. J.' });
  });
});

describe(`articles: fallbacks, dates and links (${provider})`, () => {
  it('falls back to the item text when the page fails or is empty, and dates from page or first sight', async () => {
    serveFixtureFeed('/odd.rss', 'odd-items.rss');
    // future: the item's date is implausible, the page has a real one; epoch: page gone (404);
    // garbage: page without article text; the relative link: an ordinary page without any date.
    site.route('/odd/future', (_q, res) =>
      sendHtml(res, articleHtml({ title: 'Future', paragraphs: paragraphsFor('/odd/future'), published: '2024-02-01T12:00:00Z' })),
    );
    site.route('/odd/epoch', send('gone', { status: 404 }));
    site.route('/odd/garbage', serveFile(testdata('pages', 'empty.html'), { type: 'text/html' }));
    site.route('/odd/relative/link.html', serveFile(testdata('pages', 'article-nodate.html'), { type: 'text/html' }));
    const feed = await addFeed(t.db, site.url('/odd.rss'), { intervalMinutes: 30 });
    const before = new Date();
    const r = await runCrawlOnce(t.db, t.config, { feedIds: [feed.id] });
    expect(r).toMatchObject({ ok: 1, itemsSeen: 5, itemsNew: 5 });

    const byTitle = Object.fromEntries((await t.db.article.findMany({ where: { feedId: feed.id } })).map((a) => [a.title, a]));
    expect(byTitle['No link and no date, but a text of its own']).toMatchObject({
      textSource: 'item_description',
      extractionStatus: 'fallback',
      publishedAtSource: 'first_seen',
      originalUrl: expect.stringMatching(new RegExp(`^${site.url('/odd.rss')}#item-[0-9a-f]{16}$`)),
    });
    expect(byTitle['No link and no date, but a text of its own']!.publishedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(byTitle['Dated in the future']).toMatchObject({
      publishedAt: new Date('2024-02-01T12:00:00Z'),
      publishedAtSource: 'meta',
      textSource: 'readability',
    });
    expect(byTitle['Library extends opening hours']).toMatchObject({
      publishedAt: new Date('2024-02-05T00:00:00Z'),
      publishedAtSource: 'item',
    });
    // The epoch item's page is gone and the garbage item's page has no text; neither item has text of
    // its own, so both fail, visibly, and are retried at later checks.
    const failed = await t.db.feedItem.findMany({ where: { feedId: feed.id, status: 'failed' }, orderBy: { id: 'asc' } });
    expect(failed.map((i) => [i.title, i.attempts])).toEqual([
      ['Dated at the epoch', 1],
      ['A date nobody can read', 1],
    ]);
    expect(failed[0]!.lastError).toMatch(/HTTP 404/);
    const [health] = (await listFeedHealth(t.db)).filter((f) => f.id === feed.id);
    expect(health).toMatchObject({ articlesExtracted: 3, articlesFailed: 2, status: 'active' });
    expect(await t.db.crawlEvent.count({ where: { feedId: feed.id, kind: 'article', outcome: 'error', httpStatus: 404 } })).toBe(1);
    expect(await articlesWithoutSnippets()).toBe(0);
  });

  it('uses the item text when the page is not HTML, and the page canonical (tracking stripped) for de-duplication', async () => {
    const longText = paragraphsFor('/pdf-story').join(' ');
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>Mixed</title>
      <item><title>A PDF story</title><link>${site.url('/doc.pdf')}</link><description>${longText}</description><pubDate>Mon, 05 Feb 2024 09:00:00 GMT</pubDate></item>
      <item><title>Tracked</title><link>${site.url('/story?id=9&amp;utm_source=rss')}</link><pubDate>Mon, 05 Feb 2024 10:00:00 GMT</pubDate></item>
    </channel></rss>`;
    site.route('/mixed.rss', send(rss, { type: 'application/rss+xml' }));
    site.route('/doc.pdf', send(Buffer.from('%PDF-1.4'), { type: 'application/pdf' }));
    site.route('/story', (_q, res) =>
      sendHtml(
        res,
        articleHtml({ title: 'Tracked', paragraphs: paragraphsFor('/story'), canonical: '/story?id=9&utm_campaign=x&fbclid=y' }),
      ),
    );
    const feed = await addFeed(t.db, site.url('/mixed.rss'), { intervalMinutes: 30 });
    await runCrawlOnce(t.db, t.config, { feedIds: [feed.id] });
    expect(await t.db.article.findFirstOrThrow({ where: { title: 'A PDF story' } })).toMatchObject({
      textSource: 'item_description',
      extractionStatus: 'fallback',
    });
    expect(await t.db.article.findFirstOrThrow({ where: { title: 'Tracked' } })).toMatchObject({ canonicalUrl: site.url('/story?id=9') });
    expect(await t.db.crawlEvent.findFirstOrThrow({ where: { url: site.url('/doc.pdf') } })).toMatchObject({
      outcome: 'error',
      errorCode: 'FETCH_CONTENT_TYPE',
    });
  });
});

describe(`JSON Feed and forgiving XML through the crawl (${provider})`, () => {
  it('crawls JSON Feeds served as application/feed+json and as application/json', async () => {
    const json = (name: string) =>
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: `JSON ${name}`,
        items: [1, 2].map((n) => ({
          id: `${name}-${n}`,
          url: site.url(`/ext/json-${name}/story-${n}`),
          title: `${name} ${n}`,
          date_published: '2024-02-05T09:00:00Z',
        })),
      });
    site.route('/feed.json', send(json('a'), { type: 'application/feed+json' }));
    site.route('/plain.json', send(json('b'), { type: 'application/json; charset=utf-8' }));
    const a = await addFeed(t.db, site.url('/feed.json'), { intervalMinutes: 30 });
    const b = await addFeed(t.db, site.url('/plain.json'), { intervalMinutes: 30 });
    const r = await runCrawlOnce(t.db, t.config, { feedIds: [a.id, b.id] });
    expect(r).toMatchObject({ feeds: 2, ok: 2, failed: 0, itemsNew: 4, articlesExtracted: 4 });
    expect(await t.db.feed.findUniqueOrThrow({ where: { id: a.id } })).toMatchObject({ title: 'JSON a', parseWarning: null });
    expect(await t.db.article.findFirstOrThrow({ where: { feedId: b.id, title: 'b 2' } })).toMatchObject({
      publishedAt: new Date('2024-02-05T09:00:00Z'),
      textSource: 'readability',
    });
  });

  it('stores what a truncated feed still holds, shows the warning on the feed, and clears it when the feed is whole again', async () => {
    let body = fs.readFileSync(testdata('forgiving', 'truncated.rss'), 'utf8').replaceAll('https://news.test', `${site.origin}/ext`);
    site.route('/truncated.rss', (_q, res) => void res.writeHead(200, { 'Content-Type': 'application/rss+xml' }).end(body));
    const feed = await addFeed(t.db, site.url('/truncated.rss'), { intervalMinutes: 30 });
    expect(await runCrawlOnce(t.db, t.config, { feedIds: [feed.id] })).toMatchObject({ ok: 1, itemsNew: 2, articlesExtracted: 2 });
    const [health] = (await listFeedHealth(t.db)).filter((f) => f.id === feed.id);
    expect(health).toMatchObject({
      status: 'active',
      consecutiveFailures: 0,
      parseWarning: expect.stringMatching(/Unclosed root tag.*read leniently/),
    });
    body = body.replace(/<item>\s*<title>Cut in the mid$/, '</channel></rss>');
    await refreshFeedNow(t.db, feed.id);
    expect(await runCrawlOnce(t.db, t.config, { feedIds: [feed.id] })).toMatchObject({ ok: 1, itemsNew: 0 });
    expect((await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } })).parseWarning).toBeNull();
  });
});

describe(`scheduling, leases and admin verbs (${provider})`, () => {
  it('marks a feed that keeps failing as broken, keeps it listed and still schedules it at the cap', async () => {
    site.route('/flaky.rss', send('down', { status: 503, headers: { 'Retry-After': '120' } }));
    const feed = await addFeed(t.db, site.url('/flaky.rss'), { intervalMinutes: 30 });
    const config = { ...t.config, tuning: { ...t.config.tuning, brokenAfterFailures: 2, backoffMaxMinutes: 90 } };
    const first = await runCrawlOnce(t.db, config, { feedIds: [feed.id] });
    expect(first).toMatchObject({ failed: 1 });
    let row = await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } });
    expect(row).toMatchObject({ status: 'active', consecutiveFailures: 1, lastErrorCode: 'FETCH_HTTP_STATUS', lastHttpStatus: 503 });
    expect(row.nextCheckAt.getTime() - Date.now()).toBeGreaterThan(29 * 60_000); // the interval (Retry-After is shorter)
    await runCrawlOnce(t.db, config, { feedIds: [feed.id] });
    await runCrawlOnce(t.db, config, { feedIds: [feed.id] });
    row = await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } });
    expect(row).toMatchObject({ status: 'broken', consecutiveFailures: 3 });
    const wait = row.nextCheckAt.getTime() - Date.now();
    expect(wait).toBeGreaterThan(89 * 60_000);
    expect(wait).toBeLessThanOrEqual(90 * 60_000);
    expect((await listFeedHealth(t.db))[0]).toMatchObject({ id: feed.id, status: 'broken', lastError: expect.stringMatching(/HTTP 503/) });
    // It recovers by itself when the server does.
    serveFixtureFeed('/flaky.rss', 'bare-ampersand.rss');
    await runCrawlOnce(t.db, config, { feedIds: [feed.id] });
    expect(await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } })).toMatchObject({ status: 'active', consecutiveFailures: 0 });
  });

  it('fetches a feed that becomes due during a pass in that pass, not the next one', async () => {
    const slow = await startNewsSite({ pageDelayMs: 400 });
    const other = await startNewsSite();
    try {
      const items = [0, 1, 2, 3]
        .map((i) => `<item><title>Slow ${i}</title><link>${slow.url(`/ext/slow-pass/${i}`)}</link></item>`)
        .join('');
      slow.route(
        '/slow-pass.rss',
        send(`<rss version="2.0"><channel><title>Slow</title>${items}</channel></rss>`, { type: 'application/rss+xml' }),
      );
      other.route('/late.rss', send('<rss version="2.0"><channel><title>Late</title></channel></rss>', { type: 'application/rss+xml' }));
      await t.db.feed.updateMany({ data: { nextCheckAt: new Date(Date.now() + 3600_000) } });
      await addFeed(t.db, slow.url('/slow-pass.rss'), { intervalMinutes: 30 });
      const pass = runCrawlOnce(t.db, t.config);
      await new Promise((r) => setTimeout(r, 500));
      const late = await addFeed(t.db, other.url('/late.rss'), { intervalMinutes: 30 });
      const s = await pass;
      expect(s).toMatchObject({ feeds: 2, ok: 2 });
      expect((await t.db.feed.findUniqueOrThrow({ where: { id: late.id } })).lastSuccessAt).not.toBeNull();
    } finally {
      await slow.close();
      await other.close();
    }
  });

  it('pauses, resumes and refreshes feeds', async () => {
    serveFixtureFeed('/paused.rss', 'bare-ampersand.rss');
    const feed = await addFeed(t.db, site.url('/paused.rss'), { intervalMinutes: 30 });
    await pauseFeed(t.db, feed.id);
    expect((await runCrawlOnce(t.db, t.config, { feedIds: [feed.id] })).feeds).toBe(0);
    expect(site.requestsTo('/paused.rss')).toHaveLength(0);
    await resumeFeed(t.db, feed.url);
    expect((await runCrawlOnce(t.db, t.config)).ok).toBeGreaterThanOrEqual(1);
    expect(site.requestsTo('/paused.rss')).toHaveLength(1);
    expect((await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } })).nextCheckAt.getTime()).toBeGreaterThan(Date.now());
    await refreshFeedNow(t.db, feed.id);
    await runCrawlOnce(t.db, t.config);
    expect(site.requestsTo('/paused.rss')).toHaveLength(2);
  });

  it('lets exactly one of many concurrent claimants take a feed lease', async () => {
    const feed = await addFeed(t.db, 'https://lease.test/feed.xml', { intervalMinutes: 30 });
    const clients = [t.db, createDb(t.config), createDb(t.config), createDb(t.config)];
    try {
      const wins = await Promise.all(
        clients.flatMap((db, i) => [0, 1].map((j) => acquireLease(db, feed.id, { owner: `p${i}-${j}`, seconds: 60 }))),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
    } finally {
      await Promise.all(clients.slice(1).map((c) => c.$disconnect()));
      await t.db.feed.delete({ where: { id: feed.id } });
    }
  });

  it('never lets two crawler processes fetch the same feed at the same time', async () => {
    const slow = (name: string) => async (_req: unknown, res: ServerResponse) => {
      await new Promise((r) => setTimeout(r, 150));
      res
        .writeHead(200, { 'Content-Type': 'application/rss+xml' })
        .end(`<rss version="2.0"><channel><title>${name}</title></channel></rss>`);
    };
    const ids: number[] = [];
    for (const n of [1, 2, 3, 4]) {
      site.route(`/slow-${n}.rss`, slow(`slow ${n}`));
      ids.push((await addFeed(t.db, site.url(`/slow-${n}.rss`), { intervalMinutes: 30 })).id);
    }
    const other = createDb(t.config);
    try {
      const [a, b] = await Promise.all([runCrawlOnce(t.db, t.config), runCrawlOnce(other, t.config)]);
      expect(a.feeds + b.feeds).toBe(4);
      for (const n of [1, 2, 3, 4]) expect(site.requestsTo(`/slow-${n}.rss`)).toHaveLength(1);
    } finally {
      await other.$disconnect();
    }
  });

  it('probes a URL before it is added: a feed summary, or a clear error', async () => {
    site.route('/probe-page', serveFile(testdata('html-page.html'), { type: 'text/html' }));
    site.route('/probe.xml', serveFile(testdata('encoding-windows-1251.xml'), { type: 'text/xml' }));
    await expect(probeFeed(site.url('/probe.xml'), t.config)).resolves.toMatchObject({
      format: 'rss',
      title: 'Новости дня',
      items: 1,
      latestPublished: '2024-02-05T06:00:00.000Z',
    });
    await expect(probeFeed(site.url('/probe-page'), t.config)).rejects.toMatchObject({
      code: 'FEED_PARSE_ERROR',
      message: expect.stringContaining('rss/top.xml'),
    });
    await expect(probeFeed(site.url('/nothing-here'), t.config)).rejects.toMatchObject({ code: 'FETCH_HTTP_STATUS' });
  });

  it('reports totals and ingestion per day', async () => {
    const stats = await crawlStats(t.db);
    expect(stats.articles).toBe(await t.db.article.count());
    expect(stats.snippets).toBe(await t.db.snippet.count());
    expect(stats.feeds).toBe(await t.db.feed.count());
    expect(stats.feedsByStatus.broken ?? 0).toBe(0);
    const days = await ingestionPerDay(t.db, 7);
    expect(days).toHaveLength(7);
    const today = days[6]!;
    expect(today.day).toBe(new Date().toISOString().slice(0, 10));
    expect(today.articles).toBe(stats.articles);
    expect(today.snippets).toBe(stats.snippets);
    expect(today.feedChecks).toBe(await t.db.crawlEvent.count({ where: { kind: 'feed' } }));
    expect(today.feedErrors).toBeGreaterThan(0);
    expect(days.slice(0, 6).every((d) => d.articles === 0)).toBe(true);
  });
});
