/**
 * Health that tells the truth, on the real database: items that never become articles make a feed
 * "degraded" (not "ok"), a failing feed says since when, and imported corpora are not counted as
 * fetched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { ingestionPerDay, listFeedHealth } from './health';
import { storeArticle } from '../store/articles';

describe('feed health', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => t.cleanup());

  async function feedWithItems(url: string, statuses: string[], extra: Record<string, unknown> = {}) {
    const feed = await t.db.feed.create({ data: { url, title: url, lastSuccessAt: new Date(), itemsSeen: statuses.length, ...extra } });
    const t0 = Date.now() - statuses.length * 60_000;
    for (const [i, status] of statuses.entries()) {
      await t.db.feedItem.create({
        data: {
          feedId: feed.id,
          itemKey: `k${i}`,
          status,
          firstSeenAt: new Date(t0 + i * 60_000),
          lastSeenAt: new Date(),
          lastError: status === 'failed' ? `page ${i} unusable (HTTP 403) and the item has no text of its own` : null,
        },
      });
    }
    return feed;
  }

  it('a feed whose items all fail is degraded with the newest failure; healthy feeds are ok', async () => {
    const bad = await feedWithItems('https://twis.example/feed', [...Array(19).fill('pending'), ...Array(50).fill('failed')], {
      articlesFailed: 50,
    });
    const good = await feedWithItems('https://good.example/feed', Array(8).fill('stored'));
    const rows = await listFeedHealth(t.db);
    const b = rows.find((r) => r.id === bad.id)!;
    expect(b.state).toBe('degraded');
    expect(b.recentItems).toEqual({
      settled: 50,
      stored: 0,
      failed: 50,
      pending: 0,
      lastError: 'page 68 unusable (HTTP 403) and the item has no text of its own',
    });
    expect(b.stateReason).toContain('none of its latest 50 items became an article: page 68 unusable');
    expect(rows.find((r) => r.id === good.id)!.state).toBe('ok');
    // Problems first.
    expect(rows.findIndex((r) => r.id === bad.id)).toBeLessThan(rows.findIndex((r) => r.id === good.id));
  });

  it('a failing feed says since when: the first failed check after the last success', async () => {
    const lastSuccess = new Date(Date.now() - 3 * 86_400_000);
    const feed = await t.db.feed.create({
      data: {
        url: 'https://down.example/rss',
        lastSuccessAt: lastSuccess,
        consecutiveFailures: 3,
        lastError: 'HTTP 500',
        lastErrorAt: new Date(),
      },
    });
    const at = (days: number) => new Date(Date.now() - days * 86_400_000);
    await t.db.crawlEvent.createMany({
      data: [
        { feedId: feed.id, kind: 'feed', url: feed.url, outcome: 'error', durationMs: 1, createdAt: at(5) },
        { feedId: feed.id, kind: 'feed', url: feed.url, outcome: 'ok', durationMs: 1, createdAt: lastSuccess },
        { feedId: feed.id, kind: 'feed', url: feed.url, outcome: 'error', durationMs: 1, createdAt: at(2) },
        { feedId: feed.id, kind: 'feed', url: feed.url, outcome: 'error', durationMs: 1, createdAt: at(1) },
      ],
    });
    const row = (await listFeedHealth(t.db)).find((r) => r.id === feed.id)!;
    expect(row.state).toBe('failing');
    expect(Math.round((Date.now() - Date.parse(row.failingSince!)) / 86_400_000)).toBe(2);
  });

  it('counts imported articles apart from fetched ones', async () => {
    const window = { size: 5, stride: 3, minChars: 10 };
    const base = {
      publishedAt: new Date(),
      fetchedAt: new Date(),
      extractionStatus: 'ok' as const,
      text: 'A sentence long enough to be a snippet. And another one here.',
    };
    await storeArticle(
      t.db,
      {
        ...base,
        canonicalUrl: 'corpus://x/1',
        originalUrl: 'corpus://x/1',
        title: 'Imported',
        source: 'x',
        publishedAtSource: 'import',
        textSource: 'import',
      },
      window,
    );
    await storeArticle(
      t.db,
      {
        ...base,
        canonicalUrl: 'https://a.example/1',
        originalUrl: 'https://a.example/1',
        title: 'Fetched',
        source: 'a',
        publishedAtSource: 'item',
        textSource: 'readability',
      },
      window,
    );
    const today = (await ingestionPerDay(t.db, 1))[0]!;
    expect(today).toMatchObject({ articles: 1, imported: 1 });
  });
});
