/**
 * Offline first start (no wall of red feeds on a machine without internet): the default feeds are added only when a first check
 * reaches one of them, or when an admin asks; otherwise nothing is added and the reason is recorded.
 * A real local HTTP server stands for the news sites, down at first and up later.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { send, startTestServer, type TestServer } from '../../testing/http-server';
import { DEFAULT_FEEDS } from '../../lib/web/default-feeds';
import { addSeedFeeds, seedFeedsAtStart, seedState } from './seed';

const RSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>Harbour Weekly</title><link>http://example.org/</link>
<item><title>Bridge reopens</title><link>http://example.org/a</link></item></channel></rss>`;

describe('seeding the default feeds', () => {
  let site: TestServer;
  let t: TestDb;
  beforeAll(async () => {
    site = await startTestServer({ '/a.xml': send('down for maintenance', { status: 503 }), '/b.xml': send('down', { status: 503 }) });
    t = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, seedFeeds: `${site.url('/a.xml')},${site.url('/b.xml')},${site.url('/c.xml')}` });
  });
  afterAll(async () => Promise.all([t.cleanup(), site.close()]));

  it('adds nothing when no feed can be reached, and says why; the next start tries again and adds them once', async () => {
    const first = await seedFeedsAtStart(t.db, t.config);
    expect(first.added).toBe(0);
    expect(first.state.kind).toBe('skipped');
    expect(first.state.kind === 'skipped' && first.state.reason).toMatch(
      /^the first check could not reach any of the first 2 feeds \(http:\/\/127\.0\.0\.1:\d+\/a\.xml: .*503/,
    );
    expect(await t.db.feed.count()).toBe(0);

    site.route('/b.xml', send(RSS, { type: 'application/rss+xml' }));
    const second = await seedFeedsAtStart(t.db, t.config);
    expect(second.added).toBe(3);
    expect(second.state.kind).toBe('seeded');
    expect((await t.db.feed.findMany({ orderBy: { id: 'asc' } })).map((f) => f.url)).toEqual([
      site.url('/a.xml'),
      site.url('/b.xml'),
      site.url('/c.xml'),
    ]);

    // Once per database: removed feeds do not come back.
    await t.db.feed.deleteMany({});
    expect((await seedFeedsAtStart(t.db, t.config)).added).toBe(0);
    expect(await t.db.feed.count()).toBe(0);
  });

  it('QUIN_SEED_FEEDS=false adds nothing at start; an admin can still ask for the default list', async () => {
    const off = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, seedFeeds: false });
    try {
      let checked = 0;
      const outcome = await seedFeedsAtStart(off.db, off.config, async () => void checked++);
      expect(outcome).toEqual({ added: 0, state: { kind: 'off' } });
      expect(checked).toBe(0);
      expect((await addSeedFeeds(off.db, off.config)).added).toHaveLength(DEFAULT_FEEDS.length);
      expect((await off.db.feed.findMany()).map((f) => f.title)).toEqual(DEFAULT_FEEDS.map((f) => f.title));
      expect((await seedState(off.db, off.config)).kind).toBe('seeded');
    } finally {
      await off.cleanup();
    }
  });

  it('the default list is checked on two feeds at once; an unreachable machine gets the recorded reason', async () => {
    const fresh = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, seedFeeds: true });
    try {
      const tried: string[] = [];
      const outcome = await seedFeedsAtStart(fresh.db, fresh.config, async (url) => {
        tried.push(url);
        throw new Error('getaddrinfo ENOTFOUND');
      });
      expect(tried).toEqual(DEFAULT_FEEDS.slice(0, 2).map((f) => f.url));
      expect(outcome.state).toMatchObject({ kind: 'skipped', reason: expect.stringContaining('ENOTFOUND') });
      expect(await fresh.db.feed.count()).toBe(0);
    } finally {
      await fresh.cleanup();
    }
  });
});
