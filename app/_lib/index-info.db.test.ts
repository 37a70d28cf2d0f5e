/**
 * What the dashboard and /api/health show about an Elasticsearch cluster (a real node, testing/es.ts):
 * its health and the index's, in one line for people; an unreachable cluster is a problem that makes
 * the service not ready.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSearchIndexes, runIndex } from '../../indexer';
import { addArticle, TOPICS } from '../../indexer/test-corpus';
import { createTestDb, type TestDb } from '../../testing/db';
import { dropIndexes, sharedEs, uniqueIndex, type EsNode } from '../../testing/es';
import { clusterProblem, describeCluster, indexInfo } from './index-info';

let es: EsNode;
let t: TestDb;
const index = uniqueIndex('info-test');

beforeAll(async () => {
  es = await sharedEs();
  t = await createTestDb({ elasticsearchUrl: es.url, elasticsearchIndex: index });
  for (const a of TOPICS) await addArticle(t.db, a);
}, 300_000);
afterAll(async () => {
  await closeSearchIndexes();
  await t?.cleanup();
  await dropIndexes(es.url, index);
  await es?.remove();
});

describe('index status with Elasticsearch', () => {
  it('shows the cluster and the index, green on one node', { timeout: 180_000 }, async () => {
    expect((await indexInfo(t.config, t.db)).cluster).toMatchObject({ status: 'green', nodes: 1, index: null });
    await runIndex(t.db, t.config, { progress: false });
    const info = await indexInfo(t.config, t.db);
    expect(info.indexes[0]).toMatchObject({ name: 'BM25', backend: 'elasticsearch', entries: await t.db.snippet.count() });
    expect(info.cluster).toMatchObject({ status: 'green', nodes: 1, dataNodes: 1, index: { status: 'green', shards: 1, unassigned: 0 } });
    expect(describeCluster(info.cluster!)).toMatch(/^cluster \S+ green, 1 node \(1 data\); index green: 1 shard, 0 copies unassigned$/);
    expect(clusterProblem(info.cluster)).toBeNull();
    expect(info.errors).toEqual([]);
  });

  it('says when the cluster cannot be reached', async () => {
    const config = { ...t.config, elasticsearchUrl: 'http://127.0.0.1:9', tuning: { elasticsearchTimeoutMs: 2000 } };
    const info = await indexInfo(config, t.db);
    expect(info.cluster).toMatchObject({ error: expect.stringMatching(/Elasticsearch at http:\/\/127\.0\.0\.1:9\/ unreachable/) });
    expect(clusterProblem(info.cluster)).toMatch(/^Elasticsearch: /);
    expect(info.errors).toHaveLength(1);
  });
});
