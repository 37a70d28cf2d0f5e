/**
 * More than one node: two nodes of the same distribution on 127.0.0.1 as one cluster (testing/es.ts;
 * `a` master and data, `b` data only, so that the cluster keeps its master when `b` goes), the index
 * with 2 shards and 1 replica (QUIN_ES_SHARDS, QUIN_ES_REPLICAS), the product given both URLs.
 * `b` is stopped in the middle of `quin index`: indexing goes on, searches are answered from `a`'s
 * copies, and once `b` rejoins and has recovered its copies, every document is on both nodes and
 * `quin index --verify` is clean. SQLite only: a cluster of two costs a minute to start.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { ownEsNode, rawClient, type EsNode } from '../../testing/es';
import { closeSearchIndexes, openSearchIndexes, runIndex, verifyIndexes } from '../index';
import { addArticle } from '../test-corpus';
import { ElasticsearchIndex } from './elasticsearch';

const INDEX = 'two-nodes';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

let a: EsNode;
let b: EsNode;
let t: TestDb;
let added = 0;

async function addArticles(n: number): Promise<void> {
  for (let i = 0; i < n; i++, added++) {
    await addArticle(t.db, {
      key: `cluster-${added}`,
      title: `Council budget ${added}`,
      sentences: Array.from(
        { length: 6 },
        (_, j) => `The council voted on budget line ${added}.${j} for the river bridge and ${j + added} schools.`,
      ),
      source: 'wire',
      publishedAt: new Date(Date.UTC(2024, 2, 1 + (added % 28))),
    });
  }
}

const dbIds = async () => (await t.db.snippet.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((s) => s.id);

/** The documents a node holds copies of (`_only_local`: its own shards). */
async function countOn(node: EsNode): Promise<number> {
  const client = rawClient(node.url);
  try {
    await client.indices.refresh({ index: INDEX });
    return (await client.count({ index: INDEX, preference: '_only_local' })).count;
  } finally {
    await client.close();
  }
}

async function health(wait: Record<string, string> = {}) {
  // The request outlives the node's own 90 s wait (the client's default 30 s gave up first in CI).
  const client = rawClient(a.url, 120_000);
  try {
    return await client.cluster.health({ index: INDEX, timeout: '90s', ...wait });
  } finally {
    await client.close();
  }
}

describe('a cluster of two nodes, one stopped mid-index', () => {
  beforeAll(async () => {
    const [ta, tb] = [await freePort(), await freePort()];
    const common = {
      'cluster.name': `quin-two-${process.pid}`,
      'discovery.seed_hosts': `127.0.0.1:${ta},127.0.0.1:${tb}`,
      'cluster.initial_master_nodes': 'a',
    };
    a = await ownEsNode({ settings: { ...common, 'node.name': 'a', 'transport.port': String(ta) } });
    b = await ownEsNode({ settings: { ...common, 'node.name': 'b', 'node.roles': 'data', 'transport.port': String(tb) } });
    const client = rawClient(a.url);
    await client.cluster.health({ wait_for_nodes: '2', timeout: '90s' });
    await client.close();
    t = await createTestDb({
      elasticsearchUrl: `${a.url},${b.url}`,
      elasticsearchIndex: INDEX,
      elasticsearchShards: 2,
      elasticsearchReplicas: 1,
      tuning: { indexBatchSize: 3 },
    });
  }, 400_000);
  afterAll(async () => {
    await closeSearchIndexes();
    await t?.cleanup();
    await b?.remove();
    await a?.remove();
  });

  it('indexes on, answers searches from the other copies, and loses nothing once the node rejoins', async () => {
    // The index made and both copies of each shard in step first: a primary on b whose replica on a is
    // still in its first recovery has no copy to promote, and the cluster turns red when b goes (as
    // Elasticsearch should; a run here caught it). Losing a node is survivable once replicas are in step.
    await addArticles(6);
    await runIndex(t.db, t.config, { progress: false });
    expect(await health({ wait_for_status: 'green' })).toMatchObject({ status: 'green', number_of_nodes: 2 });
    await addArticles(30);
    let stopping: Promise<void> | undefined;
    let step = 0;
    const progress = () => ({
      tick: () => void (++step === 5 && (stopping = b.stop())),
      setTotal: () => undefined,
      done: () => undefined,
    });
    // The pass may fail on a request caught by b's shutdown; the next pass (the worker's) redoes it.
    await runIndex(t.db, t.config, { progress }).catch((e: Error) => expect(e.message).toMatch(/Elasticsearch/));
    expect(stopping, 'b was not stopped mid-index').toBeDefined();
    await stopping;
    // b's primaries are promoted on a only once a has seen b leave (seconds on a loaded machine); a bulk
    // sent before then waits for them, past the client's timeout (CI: "bulk timed out after 30000 ms").
    expect(await health({ wait_for_nodes: '1', wait_for_status: 'yellow' })).toMatchObject({ number_of_nodes: 1 });
    await addArticles(10); // and more while b is down
    await runIndex(t.db, t.config, { progress: false });

    expect(await health()).toMatchObject({ number_of_nodes: 1, status: 'yellow', active_primary_shards: 2, unassigned_shards: 2 });
    const ix = await openSearchIndexes(t.config, t.db);
    const hits = await ix.bm25.search({ text: 'river bridge budget', terms: ['river', 'bridge', 'budget'] }, 1000);
    expect(hits.length).toBe((await dbIds()).length); // every snippet names the bridge
    const backend = new ElasticsearchIndex({ url: t.config.elasticsearchUrl!, index: INDEX, titleBoost: 1.5, timeoutMs: 30_000 });
    const status = await backend.cluster();
    await backend.close();
    expect(status).toMatchObject({ status: 'yellow', nodes: 1, index: { status: 'yellow', shards: 2, unassigned: 2 } });

    await b.start(); // rejoins with its old copies, which recover what they missed
    expect(await health({ wait_for_status: 'green', wait_for_nodes: '2' })).toMatchObject({ status: 'green', number_of_nodes: 2 });
    const n = (await dbIds()).length;
    expect(await countOn(a)).toBe(n);
    expect(await countOn(b)).toBe(n);
    const report = await verifyIndexes(t.db, t.config);
    expect(report.ok, JSON.stringify(report.checks)).toBe(true);
  }, 400_000);
});
