import { API_OPERATIONS } from '../../app/_lib/api-operations';
import { healthResponse, liveResponse } from '../../app/api/health/schema';
import { expect, test } from '../support/fixtures';

test.describe('operations endpoints', () => {
  test('GET /api/health: ready, with database, indexes, models and worker checks', async ({ request }) => {
    const r = await request.get('/api/health');
    expect(r.status()).toBe(200);
    const h = healthResponse.parse(await r.json());
    expect(h.ready).toBe(true);
    expect(h.checks.database.ok).toBe(true);
    expect(h.checks.indexes).toMatchObject({ ok: true });
    expect(h.checks.indexes.snippets).toBeGreaterThan(100);
    expect(h.checks.models).toMatchObject({ ok: true, state: 'ready' });
    expect(h.checks.models.encoder).toMatch(/^(static|use-lite|onnx):/);
    // The worker beats every few seconds.
    await expect.poll(async () => healthResponse.parse(await (await request.get('/api/health')).json()).checks.worker.ok).toBe(true);
    expect(liveResponse.parse(await (await request.get('/api/health?probe=live')).json()).live).toBe(true);
    expect((await request.get('/api/health?probe=sideways')).status()).toBe(400);
  });

  test('GET /metrics: Prometheus text with search latency, crawl, index and worker families', async ({ request }) => {
    await request.get('/api/search', { params: { q: 'homocysteine' } });
    const r = await request.get('/metrics');
    expect(r.status()).toBe(200);
    expect(r.headers()['content-type']).toContain('text/plain');
    const text = await r.text();
    for (const family of [
      'quin_search_duration_seconds histogram',
      'quin_feeds gauge',
      'quin_crawl_fetches_total counter',
      'quin_crawl_articles_extracted_total counter',
      'quin_index_size_bytes gauge',
      'quin_index_pending_snippets gauge',
      'quin_worker_up gauge',
    ]) {
      expect(text).toContain(`# TYPE ${family}`);
    }
    expect(text).toMatch(/^quin_search_duration_seconds_count [1-9]\d*$/m);
    expect(text).toMatch(/^quin_worker_up 1$/m);
    expect(text).toMatch(/^quin_index_size_bytes\{index="Dense",backend="[^"]+"\} [1-9]\d*$/m);
    expect(text).toMatch(/^quin_worker_stuck 0$/m);
  });

  test('GET /metrics shows admin sign-in counters only to a scraper holding the metrics token', async ({ request, state }) => {
    await request.post('/api/auth/login', { data: { user: 'nobody', password: 'wrong' }, headers: { 'x-forwarded-for': '203.0.113.77' } });
    const open = await (await request.get('/metrics')).text();
    expect(open).not.toContain('quin_admin_logins_total');
    const wrong = await (await request.get('/metrics', { headers: { authorization: 'Bearer not-the-token' } })).text();
    expect(wrong).not.toContain('quin_admin_logins_total');
    const r = await request.get('/metrics', { headers: { authorization: `Bearer ${state.metricsToken}` } });
    expect(await r.text()).toMatch(/^quin_admin_logins_total\{outcome="failed"\} [1-9]\d*$/m);
  });

  test('GET /api/openapi.json documents exactly the operations the server answers', async ({ request }) => {
    const doc = await (await request.get('/api/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m} ${p}`),
    );
    expect(documented.sort()).toEqual(API_OPERATIONS.map((o) => `${o.method} ${o.path}`).sort());
    // Each documented operation exists (no 404/405) on the running server.
    for (const op of API_OPERATIONS) {
      const r = await request.fetch(op.path, { method: op.method.toUpperCase(), data: op.method === 'get' ? undefined : {} });
      expect([404, 405], `${op.method} ${op.path}`).not.toContain(r.status());
    }
    expect(doc.paths['/api/search'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['q', 'k', 'page', 'halfLifeDays', 'asOf', 'from', 'to', 'maxAgeDays', 'sources']),
    );
  });
});
