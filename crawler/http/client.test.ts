import dns from 'node:dns';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQuinError, type QuinError } from '../../lib/errors';
import {
  compressionBomb,
  hang,
  hugeBody,
  redirect,
  send,
  serveFile,
  startTestServer,
  trickle,
  type TestServer,
} from '../../testing/http-server';
import { memoryInUse, startBlackhole, testCrawlerConfig } from '../../testing/crawler';
import { assertUrlAllowed, isBlockedAddress, type AddressPolicy } from './address';
import { createHttpClient, type HttpClient } from './client';

const RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>t</title></channel></rss>';
const fixture = path.join(__dirname, '..', 'testdata', 'robots-forbid.txt');

async function failure(p: Promise<unknown>): Promise<QuinError> {
  try {
    await p;
  } catch (e) {
    if (isQuinError(e)) return e;
    throw e;
  }
  throw new Error('expected the fetch to fail');
}

let server: TestServer;
let client: HttpClient;

beforeAll(async () => {
  server = await startTestServer({
    '/feed.xml': send(RSS, { type: 'application/rss+xml' }),
    '/gz.xml': (req, res) => serveFile(fixture, { gzip: true, type: 'text/plain' })(req, res),
    '/hang': hang,
    '/trickle': trickle(100),
    '/loop-a': redirect('/loop-b'),
    '/loop-b': redirect('/loop-a'),
    '/r1': redirect('/r2', 301),
    '/r2': redirect('/feed.xml', 308),
    '/404': send('no', { status: 404 }),
    '/410': send('gone', { status: 410 }),
    '/500': send('oops', { status: 500 }),
    '/30mb': hugeBody(30 * 1024 * 1024),
    '/30mb-declared': hugeBody(30 * 1024 * 1024, { declareLength: true }),
    '/gzip-bomb': compressionBomb(64 * 1024 * 1024, 'gzip'),
    '/deflate-bomb': compressionBomb(64 * 1024 * 1024, 'deflate'),
    '/br-bomb': compressionBomb(64 * 1024 * 1024, 'br'),
    '/image': send(Buffer.alloc(100), { type: 'image/png' }),
    '/etag': serveFile(fixture),
  });
  client = createHttpClient(testCrawlerConfig());
});
afterAll(() => server.close());

describe('HTTP transport', () => {
  it('sends a descriptive User-Agent with the contact URL and returns the body', async () => {
    const res = await client.fetch({ url: server.url('/feed.xml'), expect: 'feed' });
    expect(res.body.toString()).toBe(RSS);
    expect(res.mime).toBe('application/rss+xml');
    const ua = server.requestsTo('/feed.xml')[0]!.headers['user-agent'];
    expect(ua).toMatch(/^QuinBot\/\S+ \(\+https:\/\/example\.org\/quin-tests\)$/);
  });

  it('fetches robots.txt once per host and caches it', async () => {
    await client.fetch({ url: server.url('/feed.xml'), expect: 'feed' });
    await client.fetch({ url: server.url('/feed.xml?again'), expect: 'feed' });
    expect(server.requestsTo('/robots.txt')).toHaveLength(1);
  });

  it('sends conditional requests; a 304 returns no body', async () => {
    const first = await client.fetch({ url: server.url('/etag'), expect: 'any' });
    expect(first.etag).toBeTruthy();
    const second = await client.fetch({ url: server.url('/etag'), expect: 'any', etag: first.etag, lastModified: first.lastModified });
    expect(second).toMatchObject({ status: 304, notModified: true });
    expect(second.body.length).toBe(0);
    expect(server.requestsTo('/etag')[1]!.headers['if-none-match']).toBe(first.etag);
  });

  it('decompresses gzip', async () => {
    const res = await client.fetch({ url: server.url('/gz.xml'), expect: 'any' });
    expect(res.body.toString()).toContain('Disallow');
    expect(res.wireBytes).toBeLessThan(res.body.length + 40);
  });

  it('gives up on a server that accepts and never answers (total timeout)', async () => {
    const t = Date.now();
    const err = await failure(client.fetch({ url: server.url('/hang'), expect: 'feed' }));
    expect(err.code).toBe('FETCH_TIMEOUT');
    expect(Date.now() - t).toBeLessThan(4000);
  });

  it('gives up on a body that trickles', async () => {
    const err = await failure(client.fetch({ url: server.url('/trickle'), expect: 'feed' }));
    expect(err.code).toBe('FETCH_TIMEOUT');
  });

  it('times out a connection that is never established', async (ctx) => {
    const hole = await startBlackhole();
    if (!hole) return ctx.skip('python3 is needed to hold a TCP accept queue full');
    try {
      const err = await failure(
        createHttpClient(testCrawlerConfig({ tuning: { connectTimeoutMs: 300 } })).fetch({
          url: `http://127.0.0.1:${hole.port}/x`,
          expect: 'any',
        }),
      );
      expect(err.code).toBe('FETCH_TIMEOUT');
      expect(err.message).toMatch(/connect/);
    } finally {
      hole.close();
    }
  });

  it('detects redirect loops and follows ordinary redirects', async () => {
    const err = await failure(client.fetch({ url: server.url('/loop-a'), expect: 'feed' }));
    expect(err.code).toBe('FETCH_REDIRECTS');
    expect(err.message).toMatch(/loop/);
    const ok = await client.fetch({ url: server.url('/r1'), expect: 'feed' });
    expect(ok.url).toBe(server.url('/feed.xml'));
    expect(ok.redirects).toEqual([server.url('/r2'), server.url('/feed.xml')]);
  });

  it('limits the number of redirects', async () => {
    const strict = createHttpClient(testCrawlerConfig({ tuning: { maxRedirects: 1 } }));
    const err = await failure(strict.fetch({ url: server.url('/r1'), expect: 'feed' }));
    expect(err.code).toBe('FETCH_REDIRECTS');
  });

  it.each([404, 410, 500])('reports HTTP %i with its status', async (status) => {
    const err = await failure(client.fetch({ url: server.url(`/${status}`), expect: 'feed' }));
    expect(err.code).toBe('FETCH_HTTP_STATUS');
    expect(err.details).toMatchObject({ status });
  });

  it.each(['/30mb', '/30mb-declared'])('refuses a 30 MB body (%s) without holding it in memory', async (p) => {
    const before = memoryInUse();
    const err = await failure(client.fetch({ url: server.url(p), expect: 'feed' }));
    expect(err.code).toBe('FETCH_TOO_LARGE');
    expect(memoryInUse() - before).toBeLessThan(16 * 1024 * 1024);
  });

  it.each(['gzip', 'deflate', 'br'])('stops a %s bomb at the cap after decompression', async (enc) => {
    const before = memoryInUse();
    const err = await failure(client.fetch({ url: server.url(`/${enc}-bomb`), expect: 'feed' }));
    expect(err.code).toBe('FETCH_TOO_LARGE');
    expect(err.message).toMatch(/decompression/);
    expect(memoryInUse() - before).toBeLessThan(16 * 1024 * 1024);
  });

  it('checks the content type before reading the body', async () => {
    const err = await failure(client.fetch({ url: server.url('/image'), expect: 'html' }));
    expect(err.code).toBe('FETCH_CONTENT_TYPE');
  });

  it('cancels a request in flight', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const err = await failure(client.fetch({ url: server.url('/hang'), expect: 'feed', signal: ac.signal }));
    expect(err.code).toBe('CANCELLED');
  });
});

describe('politeness', () => {
  it('honours robots.txt that forbids', async () => {
    const s = await startTestServer({
      '/robots.txt': serveFile(fixture, { type: 'text/plain' }),
      '/private/feed.xml': send(RSS),
      '/public/feed.xml': send(RSS),
    });
    try {
      const c = createHttpClient(testCrawlerConfig());
      const err = await failure(c.fetch({ url: s.url('/private/feed.xml'), expect: 'feed' }));
      expect(err.code).toBe('FETCH_ROBOTS');
      expect(s.requestsTo('/private/feed.xml')).toHaveLength(0);
      await expect(c.fetch({ url: s.url('/public/feed.xml'), expect: 'feed' })).resolves.toMatchObject({ status: 200 });
    } finally {
      await s.close();
    }
  });

  it('does not crawl a host whose robots.txt answers 5xx (RFC 9309), and crawls one without robots.txt', async () => {
    const down = await startTestServer({ '/robots.txt': send('busy', { status: 503 }), '/feed.xml': send(RSS) });
    try {
      const err = await failure(createHttpClient(testCrawlerConfig()).fetch({ url: down.url('/feed.xml'), expect: 'feed' }));
      expect(err.code).toBe('FETCH_HTTP_STATUS');
      expect(err.message).toMatch(/robots\.txt answered HTTP 503/);
      expect(down.requestsTo('/feed.xml')).toHaveLength(0);
    } finally {
      await down.close();
    }
    expect(server.requestsTo('/robots.txt')[0]).toBeDefined(); // the main server has none: 404, allowed
  });

  it('makes at most one request at a time per host, with the minimum delay between them', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const s = await startTestServer({
      '/slow': async (_req, res) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((r) => setTimeout(r, 50));
        inFlight--;
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>x</p>');
      },
    });
    try {
      const c = createHttpClient(testCrawlerConfig({ hostDelayMs: 100, crawlConcurrency: 8 }));
      await Promise.all([1, 2, 3, 4].map((i) => c.fetch({ url: s.url(`/slow?${i}`), expect: 'html' })));
      expect(maxInFlight).toBe(1);
      const times = s.requests.filter((r) => r.path.startsWith('/slow')).map((r) => r.at);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(140);
    } finally {
      await s.close();
    }
  });

  it('keeps the global limit across hosts', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const slow = async (_req: unknown, res: ServerResponse) => {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await new Promise((r) => setTimeout(r, 80));
      inFlight--;
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('x');
    };
    const servers = await Promise.all([1, 2, 3, 4].map(() => startTestServer({ '/x': slow })));
    try {
      const c = createHttpClient(testCrawlerConfig({ crawlConcurrency: 2 }));
      await Promise.all(servers.map((s) => c.fetch({ url: s.url('/x'), expect: 'html' })));
      expect(maxInFlight).toBe(2);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('honours a short Retry-After on 429 by waiting, and never waits for a long one', async () => {
    const s = await startTestServer({
      '/busy': send('slow down', { status: 429, headers: { 'Retry-After': '1' } }),
      '/stop': send('go away', { status: 429, headers: { 'Retry-After': '3600' } }),
      '/ok': send('fine', { type: 'text/html' }),
    });
    try {
      const c = createHttpClient(testCrawlerConfig());
      const err = await failure(c.fetch({ url: s.url('/busy'), expect: 'html' }));
      expect(err.details).toMatchObject({ status: 429, retryAfterMs: 1000 });
      const t = Date.now();
      await c.fetch({ url: s.url('/ok'), expect: 'html' });
      expect(Date.now() - t).toBeGreaterThanOrEqual(900);
      const stop = await failure(c.fetch({ url: s.url('/stop'), expect: 'html' }));
      expect(stop.details).toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
      // 429 is about the whole host: the next request to it fails at once, without being sent.
      const sent = s.requests.length;
      const t2 = Date.now();
      const again = await failure(c.fetch({ url: s.url('/ok'), expect: 'html' }));
      expect(again.code).toBe('FETCH_PAUSED');
      expect(again.message).toMatch(/Retry-After/);
      expect(Date.now() - t2).toBeLessThan(500);
      expect(s.requests.length).toBe(sent);
    } finally {
      await s.close();
    }
  });

  it('fails requests already queued behind a 429 at once instead of sleeping until the pause ends', async () => {
    const s = await startTestServer({
      '/stop': send('go away', { status: 429, headers: { 'Retry-After': '86400' } }),
      '/a': send('fine', { type: 'text/html' }),
      '/b': send('fine', { type: 'text/html' }),
    });
    try {
      const c = createHttpClient(testCrawlerConfig({ hostDelayMs: 200 }));
      const t = Date.now();
      const results = await Promise.allSettled(['/stop', '/a', '/b'].map((p) => c.fetch({ url: s.url(p), expect: 'html' })));
      expect(Date.now() - t).toBeLessThan(2000);
      const codes = results.map((r) => (r.status === 'rejected' ? (r.reason as QuinError).code : 'ok'));
      expect(codes).toEqual(['FETCH_HTTP_STATUS', 'FETCH_PAUSED', 'FETCH_PAUSED']);
      expect(s.requestsTo('/a')).toHaveLength(0);
    } finally {
      await s.close();
    }
  });

  it("pauses only the URL that answered 503 with a long Retry-After; the host's other URLs are still fetched", async () => {
    const s = await startTestServer({
      '/down': send('maintenance', { status: 503, headers: { 'Retry-After': '86400' } }),
      '/ok': send('fine', { type: 'text/html' }),
    });
    try {
      const c = createHttpClient(testCrawlerConfig({ fetchTimeoutMs: 10_000 }));
      const down = await failure(c.fetch({ url: s.url('/down'), expect: 'html' }));
      expect(down.details).toMatchObject({ status: 503, retryAfterMs: 86_400_000 });
      const t = Date.now();
      const again = await failure(c.fetch({ url: s.url('/down'), expect: 'html' }));
      expect(again.code).toBe('FETCH_PAUSED');
      expect(Date.now() - t).toBeLessThan(500);
      expect(s.requestsTo('/down')).toHaveLength(1);
      // After a short cool-down (well within one fetch's deadline) the rest of the host is fetched.
      const ok = await c.fetch({ url: s.url('/ok'), expect: 'html' });
      expect(ok.status).toBe(200);
      expect(Date.now() - t).toBeLessThan(8000);
    } finally {
      await s.close();
    }
  });

  it("counts the wait for the host's turn in the fetch deadline", async () => {
    const s = await startTestServer({
      '/a': send('slow down', { status: 429, headers: { 'Retry-After': '3' } }),
      '/b': send('fine', { type: 'text/html' }),
    });
    try {
      const c = createHttpClient(testCrawlerConfig({ fetchTimeoutMs: 800 }));
      await failure(c.fetch({ url: s.url('/a'), expect: 'html' }));
      // The host's next turn is 3 s away (a pause short enough to wait for), past this fetch's 0.8 s deadline: it fails at once.
      const t = Date.now();
      const queued = await failure(c.fetch({ url: s.url('/b'), expect: 'html' }));
      expect(queued.code).toBe('FETCH_TIMEOUT');
      expect(queued.message).toMatch(/turn/);
      expect(Date.now() - t).toBeLessThan(500);
      expect(s.requestsTo('/b')).toHaveLength(0);
    } finally {
      await s.close();
    }
  });
});

describe('address checks', () => {
  it('classifies private, loopback, link-local and metadata addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
    ]) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])
      expect(isBlockedAddress(ip), ip).toBe(false);
  });

  it('refuses every IPv6 form that reaches a private or special address (deny by default)', () => {
    for (const ip of [
      '[::127.0.0.1]', // URL form, normalised to [::7f00:1]
      '::127.0.0.1',
      '::7f00:1', // IPv4-compatible loopback
      '::a9fe:a9fe', // IPv4-compatible cloud metadata
      '::ffff:0:7f00:1', // SIIT (RFC 6145)
      '::ffff:0:a9fe:a9fe',
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:808:808::1', // 6to4 of a public address: still a tunnel, refused
      '64:ff9b:1::7f00:1', // local-use NAT64 (RFC 8215)
      '64:ff9b:1::808:808',
      '64:ff9b::7f00:1', // well-known NAT64 of loopback
      '64:ff9b::a9fe:a9fe',
      'fec0::1', // site-local
      '2001::1', // Teredo
      '2001:db8::1', // documentation
      '100::1', // discard
      'ff02::1', // multicast
      '::', // unspecified
      'fe80::1%eth0',
      '5f00::1', // segment routing
      '3fff::1', // documentation (RFC 9637)
      '4000::1', // outside global unicast 2000::/3
      '255.255.255.255',
      '192.0.2.1',
      '198.18.0.1',
      'not-an-ip',
    ]) {
      expect(isBlockedAddress(ip), ip).toBe(true);
    }
  });

  it('refuses a private URL before it is stored: IP literals, localhost names, and names that resolve privately', async () => {
    const resolver: AddressPolicy = {
      resolve: (host, _o, cb) =>
        host === 'intranet.test' ? cb(null, [{ address: '10.1.2.3', family: 4 }]) : cb(null, [{ address: '93.184.216.34', family: 4 }]),
      isBlocked: isBlockedAddress,
    };
    for (const url of [
      'http://127.0.0.1:8080/feed.xml',
      'http://[::127.0.0.1]:8080/feed.xml',
      'http://[::ffff:0:7f00:1]/feed.xml',
      'http://[2002:a9fe:a9fe::]/x',
      'http://169.254.169.254/latest/meta-data/',
      'http://0x7f.1/feed.xml',
      'http://localhost/feed.xml',
      'http://feeds.localhost./feed.xml',
      'http://intranet.test/rss',
    ]) {
      await expect(assertUrlAllowed(new URL(url), false, resolver), url).rejects.toMatchObject({ code: 'FETCH_BLOCKED' });
    }
    await expect(assertUrlAllowed(new URL('https://example.org/feed.xml'), false, resolver)).resolves.toBeUndefined();
    await expect(assertUrlAllowed(new URL('http://127.0.0.1/feed.xml'), true, resolver)).resolves.toBeUndefined();
  });

  it('refuses http://[::127.0.0.1]:PORT/ without attempting a connection', async () => {
    const strict = createHttpClient(testCrawlerConfig({ allowPrivateHosts: false }));
    const port = new URL(server.origin).port;
    const before = server.requests.length;
    for (const host of [
      '[::127.0.0.1]',
      '[::7f00:1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:0:7f00:1]',
      '[64:ff9b::7f00:1]',
      '0x7f.1',
      '2130706433',
    ]) {
      const err = await failure(strict.fetch({ url: `http://${host}:${port}/feed.xml`, expect: 'feed' }));
      expect(err.code, host).toBe('FETCH_BLOCKED');
    }
    expect(server.requests.length).toBe(before);
  });

  it('refuses loopback by IP and by name unless private hosts are allowed', async () => {
    const strict = createHttpClient(testCrawlerConfig({ allowPrivateHosts: false }));
    const before = server.requests.length;
    expect((await failure(strict.fetch({ url: server.url('/feed.xml'), expect: 'feed' }))).code).toBe('FETCH_BLOCKED');
    const byName = server.url('/feed.xml').replace('127.0.0.1', 'localhost');
    expect((await failure(strict.fetch({ url: byName, expect: 'feed' }))).code).toBe('FETCH_BLOCKED');
    expect((await failure(strict.fetch({ url: 'http://169.254.169.254/latest/meta-data/', expect: 'any' }))).code).toBe('FETCH_BLOCKED');
    expect(server.requests.length).toBe(before);
  });

  it('checks every redirect and every DNS answer at connect time (no DNS rebinding)', async () => {
    // A resolver under the test's control: "public.test" is the local server (treated as public),
    // "internal.test" is a private address, and "rebind.test" answers public once, then private.
    let rebinds = 0;
    const port = new URL(server.origin).port;
    const answers: Record<string, () => string> = {
      'public.test': () => '127.0.0.1',
      'internal.test': () => '10.0.0.7',
      'rebind.test': () => (rebinds++ === 0 ? '127.0.0.1' : '192.168.0.10'),
    };
    const c = createHttpClient(testCrawlerConfig({ allowPrivateHosts: false }), {
      resolve: (host, _o, cb) =>
        answers[host] ? cb(null, [{ address: answers[host]!(), family: 4 }]) : dns.lookup(host, { all: true }, cb),
      isBlocked: (ip) => ip !== '127.0.0.1' && isBlockedAddress(ip),
    });
    server.route('/to-internal', redirect(`http://internal.test:${port}/feed.xml`));
    await expect(c.fetch({ url: `http://public.test:${port}/feed.xml`, expect: 'feed' })).resolves.toMatchObject({ status: 200 });
    const viaRedirect = await failure(c.fetch({ url: `http://public.test:${port}/to-internal`, expect: 'feed' }));
    expect(viaRedirect.code).toBe('FETCH_BLOCKED');
    expect(viaRedirect.message).toContain('10.0.0.7');
    // rebind.test passes its first lookup (robots.txt) and is refused on the next connection.
    const rebound = await failure(c.fetch({ url: `http://rebind.test:${port}/feed.xml`, expect: 'feed' }));
    expect(rebound.code).toBe('FETCH_BLOCKED');
    expect(rebound.message).toContain('192.168.0.10');
  });
});
