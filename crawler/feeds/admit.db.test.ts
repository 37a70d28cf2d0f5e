/**
 * One rule for every way a feed gets in: an OPML file, the default list and a single add refuse the
 * same private, loopback, link-local and metadata addresses (unless QUIN_ALLOW_PRIVATE_HOSTS), and
 * an import lists what it refused, with the reason. Runs on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { createTestDb, type TestDb } from '../../testing/db';
import { admitFeed, checkFeedUrl } from './admit';
import { importFeedList } from './feed-list';
import { parseOpml } from './opml';
import { addSeedFeeds } from './seed';

const PRIVATE = [
  'http://127.0.0.1/feed.xml',
  'http://127.1/other.xml',
  'http://localhost:8080/rss',
  'http://app.localhost/rss',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]/feed',
  'http://[::ffff:127.0.0.1]/feed',
  'http://10.0.0.5/feed',
  'http://192.168.1.1/feed',
  'http://[fd00::1]/feed',
  'http://0.0.0.0/feed',
];
const PUBLIC = 'https://example.org/feed.xml';

let closed: TestDb;
let open: TestDb;
beforeAll(async () => {
  closed = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, allowPrivateHosts: false });
  open = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, allowPrivateHosts: true });
});
afterAll(async () => {
  await closed?.cleanup();
  await open?.cleanup();
});

const opml = (urls: string[]) =>
  `<opml version="2.0"><head><title>t</title></head><body>${urls.map((u) => `<outline text="x" xmlUrl="${u}"/>`).join('')}</body></opml>`;

describe('the one rule for new feeds', () => {
  it('an OPML import adds none of the private addresses and lists each with the reason', async () => {
    const r = await importFeedList(closed.db, closed.config, parseOpml(opml([...PRIVATE, PUBLIC])), { intervalMinutes: 60 });
    expect(r.added.map((a) => a.url)).toEqual([PUBLIC]);
    expect(r.skipped.map((s) => s.url).sort()).toEqual(PRIVATE.map((u) => new URL(u).href).sort());
    for (const s of r.skipped)
      expect(s.reason).toMatch(/private, loopback, link-local or reserved address.*: refused \(QUIN_ALLOW_PRIVATE_HOSTS=true allows/);
    expect(await closed.db.feed.count()).toBe(1);
  });

  it('the default list goes through the same rule', async () => {
    const r = await addSeedFeeds(closed.db, { ...closed.config, seedFeeds: ['http://169.254.169.254/feed', 'https://example.net/rss'] });
    expect(r.added.map((a) => a.url)).toEqual(['https://example.net/rss']);
    expect(r.skipped).toEqual([{ url: 'http://169.254.169.254/feed', reason: expect.stringContaining('refused') }]);
  });

  it('a single add refuses them too, with INVALID_INPUT; QUIN_ALLOW_PRIVATE_HOSTS lets them in', async () => {
    for (const url of PRIVATE)
      await expect(admitFeed(closed.db, closed.config, url, { intervalMinutes: 60 }), url).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(checkFeedUrl('ftp://example.org/feed', closed.config)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(checkFeedUrl('https://user:pw@example.org/feed', closed.config)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(checkFeedUrl(`https://example.org/${'a'.repeat(2100)}`, closed.config)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const r = await importFeedList(open.db, open.config, parseOpml(opml(PRIVATE)), { intervalMinutes: 60 });
    expect(r.added).toHaveLength(PRIVATE.length);
  });
});
