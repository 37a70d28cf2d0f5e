import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQuinError } from '../../lib/errors';
import { ElasticsearchIndex } from './elasticsearch';
import { toEsDoc } from './es-query';
import { startFakeElasticsearch, type FakeElasticsearch } from './es-test-server';

// No Elasticsearch server can run here: these tests talk to a local HTTP server that answers as the
// Elasticsearch REST API documents (see es-test-server.ts), through the official client.
let es: FakeElasticsearch;
beforeAll(async () => {
  es = await startFakeElasticsearch();
});
afterAll(async () => {
  await es.close();
});

const row = (id: number, title: string, text: string, source = 'wire', publishedAt: Date | null = new Date('2024-03-01T00:00:00Z')) => ({
  id,
  title,
  text,
  source,
  publishedAt,
});

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'none';
  } catch (e) {
    return isQuinError(e) ? e.code : `raw: ${(e as Error).message}`;
  }
}

describe('Elasticsearch BM25 backend (against a local ES-compatible server)', () => {
  it('creates the index with the English analyzer mapping once', async () => {
    const ix = new ElasticsearchIndex({ url: es.url, index: 'mapping-test', titleBoost: 1.5, timeoutMs: 5000 });
    await ix.ensureIndex();
    await new ElasticsearchIndex({ url: es.url, index: 'mapping-test', titleBoost: 1.5, timeoutMs: 5000 }).ensureIndex();
    const created = es.indices.get('mapping-test')!;
    expect(created.mappings).toMatchObject({
      properties: {
        title: { type: 'text', analyzer: 'english' },
        text: { type: 'text', analyzer: 'english' },
        source: { type: 'keyword' },
        published_at: { type: 'date' },
      },
    });
    expect(es.requests.filter((r) => r.method === 'PUT' && r.path === '/mapping-test')).toHaveLength(1);
    await ix.close();
  });

  it('bulk-indexes, searches after a refresh, filters, deletes, lists ids', async () => {
    const ix = new ElasticsearchIndex({ url: es.url, index: 'docs', titleBoost: 2, timeoutMs: 5000 });
    await ix.bulk(
      [
        row(1, 'Vitamin D and bone health', 'Vitamin D supplements reduce fractures in older adults.'),
        row(2, 'Markets', 'Stocks rallied as oil prices fell.', 'bbc', new Date('2023-01-01T00:00:00Z')),
        row(3, 'Fractures', 'Hip fractures are common.', 'wire', null),
      ].map(toEsDoc),
      [],
    );
    expect(await ix.search({ text: 'vitamin fractures', terms: ['vitamin', 'fractures'] }, 10)).toEqual([]); // not refreshed yet
    await ix.refresh();
    const hits = await ix.search({ text: 'vitamin fractures', terms: ['vitamin', 'fractures'] }, 10);
    expect(hits.map((h) => h.snippetId).sort()).toEqual([1, 3]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect((await ix.search({ text: 'vitamin', terms: ['vitamin'] }, 10)).map((h) => h.snippetId)).toEqual([1]);
    expect(
      (await ix.search({ text: 'fractures', terms: ['fractures'] }, 10, { from: new Date('2024-01-01') })).map((h) => h.snippetId),
    ).toEqual([1]);
    expect((await ix.search({ text: 'stocks', terms: ['stocks'] }, 10, { sources: ['wire'] })).map((h) => h.snippetId)).toEqual([]);
    expect(await ix.count()).toBe(3);
    await ix.bulk([], [3, 99]); // deleting an id ES does not have is fine
    await ix.refresh();
    expect(await ix.ids()).toEqual([1, 2]);
    await ix.close();
  });

  it('never sends query syntax: hostile text goes into multi_match only', async () => {
    const ix = new ElasticsearchIndex({ url: es.url, index: 'docs', titleBoost: 2, timeoutMs: 5000 });
    const hostile = 'vitamin AND (title:x OR "y") * NEAR/3 \\ { } [ ] ~ ^ ! <script>';
    await ix.search({ text: hostile, terms: ['vitamin'] }, 5);
    const body = JSON.parse(es.requests.filter((r) => r.path === '/docs/_search').at(-1)!.body);
    expect(JSON.stringify(body)).not.toContain('query_string');
    expect(body.query.bool.must[0].multi_match).toMatchObject({ query: hostile, fields: ['title^2', 'text'], operator: 'or' });
    expect(await code(ix.search({ text: '*** ???', terms: ['*'] }, 5))).toBe('QUERY_UNUSABLE');
    expect(await ix.search({ text: 'vitamin', terms: [] }, 0)).toEqual([]);
    await ix.close();
  });

  it('maps failures to INDEX_UNAVAILABLE with the reason', async () => {
    const ix = new ElasticsearchIndex({ url: es.url, index: 'docs', titleBoost: 1, timeoutMs: 5000 });
    es.failNext(/_search$/, 3, 503); // the client retries 503 twice, then gives up
    const err = await ix.search({ text: 'vitamin', terms: ['vitamin'] }, 5).catch((e) => e);
    expect(isQuinError(err, 'INDEX_UNAVAILABLE')).toBe(true);
    es.failNext(/_count$/, 1, 400);
    expect(String((await ix.count().catch((e) => e)).message)).toContain('unavailable_shards_exception');
    expect(await code(new ElasticsearchIndex({ url: es.url, index: 'nope', titleBoost: 1, timeoutMs: 5000 }).count())).toBe(
      'INDEX_UNAVAILABLE',
    );
    expect(await code(new ElasticsearchIndex({ url: 'http://127.0.0.1:9', index: 'x', titleBoost: 1, timeoutMs: 2000 }).count())).toBe(
      'INDEX_UNAVAILABLE',
    );
    await ix.close();
  });

  it('reports a bulk item failure', async () => {
    const ix = new ElasticsearchIndex({ url: es.url, index: 'docs', titleBoost: 1, timeoutMs: 5000 });
    es.indices.delete('docs');
    // ensureIndex already ran for this object, so the write hits a missing index and ES answers per item.
    (ix as unknown as { ensured: boolean }).ensured = true;
    expect(await code(ix.bulk([toEsDoc(row(5, 't', 'x'))], []))).toBe('INDEX_UNAVAILABLE');
    await ix.close();
  });

  it('refuses a server that is not Elasticsearch (product check)', async () => {
    const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"count": 1}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const err = await new ElasticsearchIndex({ url, index: 'x', titleBoost: 1, timeoutMs: 2000 }).count().catch((e) => e);
    expect(isQuinError(err, 'INDEX_UNAVAILABLE')).toBe(true);
    expect(err.message).toContain('not Elasticsearch');
    server.close();
  });
});
