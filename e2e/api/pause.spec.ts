/**
 * A host that asks for a day's pause must not hold the others back, checked end to end against the
 * running product (`npm start`: web server + worker):
 * one host answers one feed with 503 + Retry-After: 86400 and another feed normally, a second host
 * answers normally. The host's pause is not waited on: the healthy feeds' articles are crawled,
 * indexed and found by search while the paused feed waits for its day.
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from '../support/fixtures';
import { ROOT } from '../support/state';

interface Site {
  origin: string;
  close(): Promise<void>;
}

/** A news site: /<name>.rss lists one article at /news/<name>.html; `maintenance` answers 503 for a day. */
async function startSite(stories: Record<string, string[]>, maintenance: string[] = []): Promise<Site> {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const feed = /^\/(\w+)\.rss$/.exec(url)?.[1];
    const page = /^\/news\/(\w+)\.html$/.exec(url)?.[1];
    if (feed && maintenance.includes(feed)) return void res.writeHead(503, { 'Retry-After': '86400' }).end('down for maintenance');
    if (feed && stories[feed]) {
      const item = `<item><title>${stories[feed]![0]}</title><link>${origin}/news/${feed}.html</link><pubDate>${new Date().toUTCString()}</pubDate></item>`;
      return void res
        .writeHead(200, { 'Content-Type': 'application/rss+xml' })
        .end(`<rss version="2.0"><channel><title>${feed} news</title>${item}</channel></rss>`);
    }
    if (page && stories[page]) {
      const [title, ...paragraphs] = stories[page]!;
      return void res
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        .end(
          `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</article></body></html>`,
        );
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((r) => server.close(() => r())) };
}

const HEALTHY = [
  'Harbour crane operators agree new shift pattern',
  'Crane operators at the harbour agreed a new shift pattern on Thursday after weeks of talks with the port authority.',
  'The harbour crane agreement ends an overtime ban that had delayed container ships for a fortnight.',
  'Port managers said the new shift pattern would keep the cranes working through the night at busy times.',
  'The union said its members had voted by a large majority to accept the harbour crane deal.',
];
const OTHER = [
  'Orchard cider makers report record apple harvest',
  'Cider makers in the orchard villages reported a record apple harvest after a warm and wet summer.',
  'The cider cooperative said it had pressed twice as many apples as last year and hired extra pickers.',
  'Growers warned that the record orchard harvest had pushed down the price paid for cider apples.',
  'The cooperative plans to open a new cider pressing shed in the spring to cope with bigger harvests.',
];

test('a feed in maintenance for a day (503 + Retry-After: 86400) holds up neither its host, nor another host, nor the indexer', async ({
  adminApi,
  state,
  db,
  request,
}) => {
  test.setTimeout(240_000);
  const a = await startSite({ healthy: HEALTHY, maintenance: ['x'] }, ['maintenance']);
  const b = await startSite({ other: OTHER });
  try {
    // The paused feed is added first (by the CLI: the dashboard's check would refuse a 503).
    const add = spawnSync(process.execPath, [path.join(ROOT, 'e2e/support/quin-cli.mjs'), 'feeds', 'add', `${a.origin}/maintenance.rss`], {
      cwd: ROOT,
      env: { ...process.env, QUIN_DATA_DIR: state.dataDir, DATABASE_URL: '', QUIN_ALLOW_PRIVATE_HOSTS: 'true', QUIN_LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    expect(add.status, add.stderr).toBe(0);
    for (const url of [`${a.origin}/healthy.rss`, `${b.origin}/other.rss`]) {
      const r = await adminApi.request.post('/api/feeds', { data: { url }, headers: adminApi.headers });
      expect(r.status(), await r.text()).toBe(201);
    }

    // Both healthy stories are crawled, indexed and found while the paused feed waits for its day.
    for (const [query, title] of [
      ['harbour crane operators shift pattern', HEALTHY[0]],
      ['orchard cider record apple harvest', OTHER[0]],
    ] as const) {
      await expect
        .poll(
          async () => {
            const r = await request.get('/api/search', { params: { q: query, k: '5' }, headers: { 'x-forwarded-for': '198.51.100.13' } });
            const body = (await r.json()) as { results?: { title: string }[] };
            return body.results?.map((x) => x.title) ?? [];
          },
          { timeout: 150_000, intervals: [2000] },
        )
        .toContain(title);
    }
    const paused = db.prepare('SELECT last_http_status, next_check_at FROM feeds WHERE url = ?').get(`${a.origin}/maintenance.rss`) as {
      last_http_status: number;
      next_check_at: number | string;
    };
    expect(paused.last_http_status).toBe(503);
    expect(new Date(paused.next_check_at).getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
  } finally {
    // Leave the shared server as it was: other tests list the feeds (failing ones first).
    const ids = db.prepare('SELECT id FROM feeds WHERE url LIKE ? OR url LIKE ?').all(`${a.origin}/%`, `${b.origin}/%`) as { id: number }[];
    for (const { id } of ids) await adminApi.request.delete(`/api/feeds?id=${id}`, { headers: adminApi.headers });
    await a.close();
    await b.close();
  }
});
