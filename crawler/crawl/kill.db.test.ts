/**
 * The real `quin crawl` process against a local server with slow article pages: killed with -9 in
 * the middle of a run, then restarted — no article without its snippets, no duplicates, the run
 * finishes; and stopped with SIGTERM — it exits cleanly and releases its lease. Both databases.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { send } from '../../testing/http-server';
import { startNewsSite, type NewsSite } from '../../testing/news-site';
import { runQuin, spawnQuin } from '../../testing/quin-cli';
import { addFeed } from '../feeds/manage';

const ITEMS = 24;
const provider = process.env.QUIN_TEST_DB ?? 'sqlite';

let t: TestDb;
let site: NewsSite;
let env: Record<string, string>;

function feedXml(name: string, n: number): string {
  const items = Array.from(
    { length: n },
    (_, i) =>
      `<item><title>${name} story ${i}</title><link>${site.url(`/ext/${name}/story-${i}`)}</link><pubDate>Mon, 05 Feb 2024 ${String(i % 24).padStart(2, '0')}:00:00 GMT</pubDate></item>`,
  );
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>${name}</title>${items.join('')}</channel></rss>`;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 90_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

async function invariants(feedId: number) {
  const articles = await t.db.article.findMany({
    where: { feedId },
    select: { id: true, canonicalUrl: true, sentenceCount: true, _count: { select: { snippets: true } } },
  });
  expect(articles.filter((a) => a._count.snippets === 0)).toEqual([]);
  expect(new Set(articles.map((a) => a.canonicalUrl)).size).toBe(articles.length);
  // Each article's snippets are complete (positions 0..n-1), never a partial set.
  for (const a of articles) {
    const positions = (
      await t.db.snippet.findMany({ where: { articleId: a.id }, select: { position: true }, orderBy: { position: 'asc' } })
    ).map((s) => s.position);
    expect(positions).toEqual(positions.map((_, i) => i));
  }
  expect(await t.db.feedItem.count({ where: { feedId, status: 'stored', articleId: null } })).toBe(0);
  expect(await t.db.feedItem.count({ where: { feedId, status: 'stored' } })).toBe(articles.length);
  return articles.length;
}

beforeAll(async () => {
  t = await createTestDb();
  site = await startNewsSite({ pageDelayMs: 150 });
  env = {
    QUIN_DATA_DIR: t.dataDir,
    DATABASE_URL: t.config.databaseUrlResolved,
    QUIN_ALLOW_PRIVATE_HOSTS: 'true',
    QUIN_HOST_DELAY_MS: '0',
    QUIN_FETCH_TIMEOUT_MS: '20000',
    QUIN_LOG_LEVEL: 'warn',
    QUIN_PROGRESS: 'plain',
  };
});
afterAll(async () => {
  await site?.close();
  await t?.cleanup();
});

describe(`quin crawl as a process (${provider})`, () => {
  it('survives kill -9 in the middle of a run: no article without snippets, no duplicates, the restart finishes', async () => {
    site.route('/kill.rss', send(feedXml('kill', ITEMS), { type: 'application/rss+xml' }));
    const feed = await addFeed(t.db, site.url('/kill.rss'), { intervalMinutes: 60 });
    const child = spawnQuin(['crawl'], env);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      await waitFor('a few articles', async () => (await t.db.article.count({ where: { feedId: feed.id } })) >= 4);
    } catch (e) {
      child.kill('SIGKILL');
      throw new Error(`${(e as Error).message}; crawler stderr:\n${stderr}`);
    }
    child.kill('SIGKILL');
    expect((await exited(child)).signal).toBe('SIGKILL');

    const partial = await invariants(feed.id);
    expect(partial).toBeGreaterThanOrEqual(4);
    expect(partial).toBeLessThan(ITEMS);
    // The dead process still holds the feed's lease; the restart on this machine takes it over.
    expect((await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } })).leaseOwner).toMatch(/:\d+:/);
    await t.db.feed.update({ where: { id: feed.id }, data: { nextCheckAt: new Date() } });

    const pagesBefore = site.pageRequests();
    const r = await runQuin(['crawl', '--once'], env);
    expect(r.status, r.stderr).toBe(0);
    expect(await invariants(feed.id)).toBe(ITEMS);
    // Only what was missing was fetched again (at most the one page in flight at the kill twice).
    expect(site.pageRequests() - pagesBefore).toBeLessThanOrEqual(ITEMS - partial + 1);
    expect(await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } })).toMatchObject({
      leaseOwner: null,
      status: 'active',
      consecutiveFailures: 0,
    });
  }, 180_000);

  it('stops cleanly on SIGTERM and releases its lease', async () => {
    site.route('/term.rss', send(feedXml('term', ITEMS), { type: 'application/rss+xml' }));
    const feed = await addFeed(t.db, site.url('/term.rss'), { intervalMinutes: 60 });
    const child = spawnQuin(['crawl'], env);
    await waitFor('the first articles', async () => (await t.db.article.count({ where: { feedId: feed.id } })) >= 2);
    const t0 = Date.now();
    child.kill('SIGTERM');
    const end = await exited(child);
    expect(end).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect((await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } })).leaseOwner).toBeNull();
    await invariants(feed.id);
  }, 180_000);
});
