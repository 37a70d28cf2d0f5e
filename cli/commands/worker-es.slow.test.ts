/**
 * The worker's indexing loop against a real Elasticsearch node (testing/es.ts) that dies or stops
 * answering in the middle of a pass: the pass fails with a clear error naming the node, nothing is
 * lost (the batch in flight stays "pending" in the ledger), and the loop's next passes catch up once
 * the node answers again, leaving the indexes exactly the database's (`quin index --verify`).
 * SQLite only: the ledger's writes are the same Prisma calls on PostgreSQL (es-sync.db.test.ts and
 * the crash test run there), and a node restart costs half a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ElasticsearchIndex } from '../../indexer/bm25/elasticsearch';
import { verifyIndexes } from '../../indexer';
import { addArticle } from '../../indexer/test-corpus';
import { createTestDb, type TestDb } from '../../testing/db';
import { ownEsNode, type EsNode } from '../../testing/es';
import { indexTask, runWorker } from './worker';

const INDEX = 'outage-test';
/** Short, so that a frozen node fails a request within seconds (three tries: the client retries twice). */
const TIMEOUT_MS = 1500;

let node: EsNode;
let t: TestDb;
let added = 0;

async function addArticles(n: number): Promise<void> {
  for (let i = 0; i < n; i++, added++) {
    await addArticle(t.db, {
      key: `outage-${added}`,
      title: `Harbour report ${added}`,
      sentences: Array.from(
        { length: 6 },
        (_, j) => `The harbour board met on day ${added} and approved item ${j} of the plan ${added * 7 + j}.`,
      ),
      source: added % 2 ? 'wire' : 'daily',
      publishedAt: new Date(Date.UTC(2024, 0, 1 + added)),
    });
  }
}

const until = async (what: string, check: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
};

/**
 * The worker with its real index loop; `onBatch` runs at each step of headway of a pass and says whether
 * it broke the node. `afterFault()` is the first pass error from then on: a pass before the fault may
 * already have failed on its own (a fresh node creating its index past the short timeout at high load).
 */
function worker(onBatch: (step: number) => boolean) {
  const controller = new AbortController();
  const errors: string[] = [];
  let passes = 0;
  let step = 0;
  let faultAt = -1;
  const inner = indexTask(t.db, t.config);
  const task = {
    name: 'index' as const,
    async run(signal: AbortSignal, progress: () => void) {
      try {
        return await inner.run(signal, () => {
          progress();
          if (onBatch(++step) && faultAt < 0) faultAt = errors.length;
        });
      } catch (e) {
        errors.push((e as Error).message);
        throw e;
      } finally {
        passes += 1;
      }
    },
  };
  const done = runWorker({ db: t.db, tasks: [task], pollMs: 300, signal: controller.signal, heartbeatMs: 1000 });
  return {
    afterFault: () => (faultAt < 0 ? undefined : errors[faultAt]),
    passes: () => passes,
    stop: async () => (controller.abort(), await done),
  };
}

async function esIds(): Promise<number[]> {
  const ix = new ElasticsearchIndex({ url: node.url, index: INDEX, titleBoost: 1.5, timeoutMs: 30_000 });
  await ix.refresh();
  const ids = await ix.ids();
  await ix.close();
  return ids;
}
const dbIds = async () => (await t.db.snippet.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((s) => s.id);
const clean = async () => (await verifyIndexes(t.db, t.config)).ok;

describe('the worker while the Elasticsearch node goes down or slow mid-index', () => {
  beforeAll(async () => {
    node = await ownEsNode();
    t = await createTestDb({
      elasticsearchUrl: node.url,
      elasticsearchIndex: INDEX,
      tuning: { indexBatchSize: 4, elasticsearchTimeoutMs: TIMEOUT_MS },
    });
  }, 300_000);
  afterAll(async () => {
    await t?.cleanup();
    await node?.remove();
  });

  it('a node killed mid-pass: the pass fails naming the node, and the loop catches up once it is back', async () => {
    await addArticles(12);
    const w = worker((step) => step === 3 && (node.kill(), true));
    await until('a failed pass', async () => w.afterFault() !== undefined, 60_000);
    expect(w.afterFault()).toMatch(new RegExp(`Elasticsearch at ${node.url}/ unreachable`));
    const pending = await t.db.esEntry.count({ where: { state: 'pending' } });
    const done = await t.db.esEntry.count({ where: { state: 'done' } });
    expect(done).toBeLessThan((await dbIds()).length); // the pass stopped part-way…
    expect(done + pending).toBeGreaterThan(0); // …and the ledger knows what may be in flight
    await node.start(); // same port, same data
    await until('the loop to catch up', clean, 120_000);
    expect(await esIds()).toEqual(await dbIds());
    await w.stop();
  }, 300_000);

  it('a node that stops answering mid-pass: the pass times out, and the loop catches up once it answers', async () => {
    await addArticles(12);
    const w = worker((step) => step === 3 && (node.freeze(), true));
    try {
      await until('a failed pass', async () => w.afterFault() !== undefined, 60_000);
      expect(w.afterFault()).toMatch(new RegExp(`Elasticsearch at ${node.url}/: .* timed out after ${TIMEOUT_MS} ms`));
      expect(await t.db.esEntry.count({ where: { state: 'done' } })).toBeLessThan((await dbIds()).length);
    } finally {
      node.thaw();
    }
    await until('the loop to catch up', clean, 120_000);
    expect(await esIds()).toEqual(await dbIds());
    expect(w.passes()).toBeGreaterThan(1);
    await w.stop();
  }, 300_000);
});
