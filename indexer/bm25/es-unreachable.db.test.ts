/**
 * Fault suite (docs/development.md): Elasticsearch at a port where nothing listens. A refused
 * connection is known at once, so a search fails at once and says the cluster is unreachable, and the
 * status behind /api/health comes back at once with the reason (the client's retry backoff made a
 * search take 4.5 s and /api/health 9 s).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQuinError } from '../../lib/errors';
import { errorBody } from '../../lib/web/http';
import { createTestDb, type TestDb } from '../../testing/db';
import { ElasticsearchIndex } from './elasticsearch';

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

describe('Elasticsearch at a closed port', () => {
  let es: ElasticsearchIndex;
  let url: string;
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
    url = `http://127.0.0.1:${await closedPort()}`;
    es = new ElasticsearchIndex({ url, index: 'quin-unreachable', titleBoost: 1.5, timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await es.close();
    await t.cleanup();
  });

  it('a search fails within a second, naming the unreachable cluster for the reader too', async () => {
    const t0 = performance.now();
    const e = await es.search({ terms: ['harbour'] } as never, 10).catch((err: unknown) => err);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(isQuinError(e, 'INDEX_UNAVAILABLE')).toBe(true);
    expect((e as Error).message).toContain(`Elasticsearch at ${url}/ unreachable (search)`);
    // The JSON API's body: 503 with what is wrong, not only "index unavailable".
    expect(errorBody(e)).toMatchObject({
      status: 503,
      body: { error: { code: 'INDEX_UNAVAILABLE', message: `Elasticsearch at ${url}/ is unreachable (connection refused)` } },
    });
  });

  it('the status /api/health reads comes back within a second with the reason', async () => {
    const t0 = performance.now();
    const status = await es.status(t.db, 10);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(status.cluster).toEqual({ error: expect.stringContaining(`Elasticsearch at ${url}/ unreachable (cluster health)`) });
    expect(status.bytes).toBeNull();
  });
});
