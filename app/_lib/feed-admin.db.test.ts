/**
 * Adding feeds as admins do: the URL is fetched once and must parse; private and loopback addresses
 * are refused unless configuration allows them. Real database, real HTTP server on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQuinError } from '../../lib/errors';
import { createTestDb, type TestDb } from '../../testing/db';
import { redirect, serveBody, startTestServer, type TestServer } from '../../testing/http-server';
import { TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { addCheckedFeed, changeFeed, deleteFeed, listFeeds } from './feed-admin';

const RSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>Harbour Weekly</title><link>http://example.org/</link>
<item><title>Bridge reopens</title><link>http://example.org/a</link><pubDate>Mon, 03 Jun 2024 10:00:00 GMT</pubDate></item></channel></rss>`;

describe('feed management', () => {
  let open: TestDb;
  let closed: TestDb;
  let site: TestServer;

  beforeAll(async () => {
    site = await startTestServer({
      '/feed.xml': serveBody(() => Buffer.from(RSS), { type: 'application/rss+xml' }),
      '/page.html': serveBody(() => Buffer.from('<!DOCTYPE html><html><body><p>Not a feed.</p></body></html>'), { type: 'text/html' }),
      '/to-file': redirect('file:///etc/passwd'),
    });
    open = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, allowPrivateHosts: true });
    closed = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, allowPrivateHosts: false });
  });
  afterAll(async () => {
    await Promise.all([open.cleanup(), closed.cleanup(), site.close()]);
  });

  it('adds a feed that parses, with its own title, then pauses, resumes, re-checks and removes it', async () => {
    const feed = await addCheckedFeed(open, { url: site.url('/feed.xml'), intervalMinutes: 15 });
    expect(feed).toMatchObject({ url: site.url('/feed.xml'), title: 'Harbour Weekly', intervalMinutes: 15, status: 'active' });
    expect(site.requestsTo('/feed.xml')).toHaveLength(1);
    await expect(addCheckedFeed(open, { url: site.url('/feed.xml') })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await changeFeed(open, feed.id, { action: 'pause' })).status).toBe('paused');
    expect((await changeFeed(open, feed.id, { action: 'resume' })).status).toBe('active');
    const due = await changeFeed(open, feed.id, { action: 'refresh', intervalMinutes: 5 });
    expect(due.intervalMinutes).toBe(5);
    expect(Date.parse(due.nextCheckAt)).toBeLessThanOrEqual(Date.now());
    expect(await deleteFeed(open, feed.id)).toEqual({ id: feed.id, url: site.url('/feed.xml') });
    expect(await listFeeds(open)).toEqual([]);
  });

  it('refuses a page that is not a feed with the reason, and adds nothing', async () => {
    const err = await addCheckedFeed(open, { url: site.url('/page.html') }).catch((e: unknown) => e);
    expect(isQuinError(err, 'INVALID_INPUT')).toBe(true);
    expect((err as Error).message).toMatch(/could not be read/);
    expect(await listFeeds(open)).toEqual([]);
  });

  it('refuses loopback addresses unless QUIN_ALLOW_PRIVATE_HOSTS allows them', async () => {
    const before = site.requests.length;
    const err = await addCheckedFeed(closed, { url: site.url('/feed.xml') }).catch((e: unknown) => e);
    expect(isQuinError(err, 'INVALID_INPUT')).toBe(true);
    expect((err as Error).message).toMatch(/QUIN_ALLOW_PRIVATE_HOSTS/);
    expect(site.requests.length).toBe(before); // refused before any request was made
    expect(await listFeeds(closed)).toEqual([]);
  });

  it('a feed that redirects to file: is refused for what it is, without the private-address hint', async () => {
    const err = await addCheckedFeed(open, { url: site.url('/to-file') }).catch((e: unknown) => e);
    expect(isQuinError(err, 'INVALID_INPUT')).toBe(true);
    const message = (err as Error).message;
    expect(message).toMatch(/redirects to file:\/\/\/etc\/passwd: only http and https can be fetched, not file:/);
    expect(message).toMatch(/a feed must be served over http or https/);
    expect(message).not.toMatch(/QUIN_ALLOW_PRIVATE_HOSTS|private, loopback/);
    expect(await listFeeds(open)).toEqual([]);
  });
});
