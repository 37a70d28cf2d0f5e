/**
 * An admin's edit saved while the feed is being checked is kept. The check reads the feed before
 * its fetch; it must not write that title back over the admin's, nor plan the next check from the
 * interval it read then. A feed removed during its check stays removed, and the check says so instead
 * of crashing on the rows that went with it. The feed server holds its answer until the edit is saved,
 * so the edit always lands inside the check. Runs on SQLite and PostgreSQL.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { createTestDb, type TestDb } from '../../testing/db';
import { startTestServer, type TestServer } from '../../testing/http-server';
import { recordingLogger, type LoggedLine } from '../../testing/log';
import { articleHtml, paragraphsFor, sendHtml } from '../../testing/news-site';
import { addFeed, removeFeed, setFeedInterval, setFeedTitle } from '../feeds/manage';
import { runCrawlOnce } from './run';

const provider = process.env.QUIN_TEST_DB ?? 'sqlite';
const REMOVED = 'feed removed while it was being checked; what the check found was dropped';
/** One item with text enough to be stored as an article of its own (no page to fetch). */
const RSS =
  '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Harbour Times</title>' +
  `<item><guid>quay-1</guid><title>Quay reopens</title><description>${paragraphsFor('/quay').join(' ')}</description></item></channel></rss>`;

let t: TestDb;
let server: TestServer;

beforeAll(async () => {
  t = await createTestDb({ ...TEST_CRAWLER_OVERRIDES });
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

/** Routes whose answers wait for `release()`; `arrived` resolves when the first request came in. */
function heldRoutes(paths: readonly string[], answer: (res: ServerResponse) => void) {
  let asked!: () => void;
  const arrived = new Promise<void>((r) => (asked = r));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  for (const path of paths)
    server.route(path, async (_req, res) => {
      asked();
      await held;
      answer(res);
    });
  return { arrived, release };
}

const rss = (body: string) => (res: ServerResponse) => void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(body);

/**
 * Adds the feed at `feedPath` and crawls; `during` runs once the first of `held` (the feed itself
 * unless said) was asked for, before it is answered. The run's summary and log lines.
 */
async function duringCheck(
  feedPath: string,
  during: (id: number) => Promise<unknown>,
  opts: { title?: string; held?: readonly string[]; answer?: (res: ServerResponse) => void } = {},
) {
  const { arrived, release } = heldRoutes(opts.held ?? [feedPath], opts.answer ?? rss(RSS));
  const feed = await addFeed(t.db, server.url(feedPath), { intervalMinutes: 60, title: opts.title });
  const { log, lines } = recordingLogger();
  const run = runCrawlOnce(t.db, t.config, { log });
  await arrived;
  await during(feed.id);
  release();
  return { summary: await run, lines, id: feed.id };
}

/** The feed's row after an edit made during its check, which must not fail. */
async function checkWhileEditing(path: string, title: string, edit: (id: number) => Promise<unknown>) {
  const { summary, id } = await duringCheck(path, edit, { title });
  expect(summary).toMatchObject({ failed: 0 });
  return t.db.feed.findUniqueOrThrow({ where: { id } });
}

const removeDuring = (feedPath: string, opts: Parameters<typeof duringCheck>[2] = {}) =>
  duringCheck(feedPath, (id) => removeFeed(t.db, id), opts);

/** The removal said for what it is, not reported as a crash with the database's foreign-key error. */
function expectRemovalLogged(lines: readonly LoggedLine[]) {
  expect(lines.filter((l) => l.level === 'error')).toEqual([]);
  expect(lines.some((l) => l.level === 'info' && l.msg === REMOVED)).toBe(true);
}

describe(`an admin's edit during a check (${provider})`, () => {
  it('keeps the title and the interval the admin saved while the feed was fetched', async () => {
    const row = await checkWhileEditing('/edited.rss', 'Harbour Times', async (id) => {
      await setFeedTitle(t.db, id, 'Harbour Times (local)');
      await setFeedInterval(t.db, id, 15);
    });
    expect(row).toMatchObject({ title: 'Harbour Times (local)', intervalMinutes: 15, consecutiveFailures: 0 });
    expect(row.lastSuccessAt).not.toBeNull();
    // Planned from the interval saved during the check, not the 60 min read before it.
    expect((row.nextCheckAt.getTime() - row.lastCheckedAt!.getTime()) / 60_000).toBe(15);
    // The article this check stored names the feed as the admin does now.
    expect((await t.db.article.findMany({ where: { feedId: row.id }, select: { source: true } })).map((a) => a.source)).toEqual([
      'Harbour Times (local)',
    ]);
  });

  it('a feed removed during its check stays removed, and the run goes on without a crash', async () => {
    const { summary, lines, id } = await removeDuring('/removed.rss');
    expect(summary).toMatchObject({ failed: 0, cancelled: false });
    expectRemovalLogged(lines);
    expect(await t.db.feed.findUnique({ where: { id } })).toBeNull();
    expect(await t.db.feedItem.count({ where: { feedId: id } })).toBe(0);
  });

  it('a feed removed while an article page is fetched: no other page of it is fetched, nothing of it is stored', async () => {
    const pages = ['/story/one.html', '/story/two.html', '/story/three.html'];
    const items = pages.map((p, i) => `<item><guid>s-${i}</guid><title>Story ${i}</title><link>${server.url(p)}</link></item>`).join('');
    server.route('/stories.rss', (_req, res) =>
      rss(`<?xml version="1.0"?><rss version="2.0"><channel><title>Stories</title>${items}</channel></rss>`)(res),
    );
    const page = (res: ServerResponse) => sendHtml(res, articleHtml({ title: 'Quay', paragraphs: paragraphsFor('/story') }));
    const { summary, lines, id } = await removeDuring('/stories.rss', { held: pages, answer: page });
    expect(summary).toMatchObject({ failed: 0, cancelled: false });
    expectRemovalLogged(lines);
    expect(pages.reduce((n, p) => n + server.requestsTo(p).length, 0)).toBe(1);
    expect(await t.db.article.count({ where: { feedId: id } })).toBe(0);
  });

  it("a title cleared during the check is filled in with the feed's own", async () => {
    const row = await checkWhileEditing('/cleared.rss', 'Old name', (id) => setFeedTitle(t.db, id, ''));
    expect(row.title).toBe('Harbour Times');
  });
});
