/**
 * Scale-out: Elasticsearch holding both indexes (elasticsearchDense) — BM25 as before and the snippet
 * vectors in a dense_vector field searched with kNN — on a real node (testing/es.ts). The vectors
 * must be the ones FAISS would hold, so kNN (HNSW, exact at this size) answers what exact search over
 * the same vectors answers, and hybrid search goes through the same pipeline as with FAISS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { closeSearchIndexes, createEncoder, openSearchIndexes, runIndex, verifyIndexes } from '../index';
import { openSentenceStore } from '../vectors/store';
import { snippetVectors } from '../vectors/snippet-vectors';
import { DENSE_POOLING } from '../vectors/pooling';
import { snippetRows } from '../state';
import { addArticle, TOPICS } from '../test-corpus';
import { dropIndexes, rawClient, sharedEs, uniqueIndex, type EsNode } from '../../testing/es';

let es: EsNode;
let t: TestDb;
const indexName = uniqueIndex('dense-test');

beforeAll(async () => {
  es = await sharedEs();
  t = await createTestDb({
    elasticsearchUrl: es.url,
    elasticsearchIndex: indexName,
    elasticsearchDense: true,
    tuning: { indexBatchSize: 4 },
  });
  for (const a of TOPICS) await addArticle(t.db, a);
}, 300_000);
afterAll(async () => {
  await closeSearchIndexes();
  await t.cleanup();
  await dropIndexes(es.url, indexName);
  await es.remove();
});

/** Every document's stored fields, by snippet id. */
async function docs(): Promise<Map<number, { vector?: number[] }>> {
  const client = rawClient(es.url);
  await client.indices.refresh({ index: indexName });
  // Elasticsearch 9 leaves vectors out of _source unless asked (index.mapping.exclude_source_vectors).
  const res = await client.search<{ vector?: number[] }>({
    index: indexName,
    size: 1000,
    query: { match_all: {} },
    _source: { exclude_vectors: false },
  } as never);
  await client.close();
  return new Map(res.hits.hits.map((h) => [Number(h._id), h._source!]));
}

/** Exact top k by inner product over the vectors the indexer would compute. */
async function exactTop(query: Float32Array, k: number): Promise<number[]> {
  const encoder = await createEncoder(t.config);
  const ids = (await t.db.snippet.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((s) => s.id);
  const { vectors } = await snippetVectors(
    await snippetRows(t.db, ids),
    encoder,
    openSentenceStore(t.config.cacheDir, encoder),
    DENSE_POOLING,
  );
  const scored = ids.map((id, i) => [id, vectors[i]!.reduce((s, v, j) => s + v * query[j]!, 0)] as const);
  return scored
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, k)
    .map(([id]) => id);
}

describe('Elasticsearch holding the vectors too (elasticsearchDense)', () => {
  it('indexes every snippet with its vector, skips FAISS, and kNN answers as exact search does', async () => {
    const stats = await runIndex(t.db, t.config, { progress: false });
    expect(stats.dense).toEqual({ skipped: expect.stringMatching(/Elasticsearch/) });
    const held = [...(await docs()).values()];
    expect(held).toHaveLength(await t.db.snippet.count());
    const ix = await openSearchIndexes(t.config, t.db);
    expect(held.every((d) => Array.isArray(d.vector) && d.vector.length === ix.encoder.dim)).toBe(true);
    expect(ix.dense!.size()).toBe(held.length);
    const [q] = await ix.encoder.embed(['electricity for rural villages from solar power']);
    const hits = await ix.dense!.search(q!, 3);
    expect(hits.map((h) => h.snippetId)).toEqual(await exactTop(q!, 3));
    expect(hits[0]!.score).toBeGreaterThan(0);
    expect(hits[0]!.score).toBeLessThanOrEqual(1.0001); // cosines, not ES's (1 + dot) / 2
    const report = await verifyIndexes(t.db, t.config);
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.index)).toEqual(['bm25 (elasticsearch)']);
  }, 180_000);

  it('removes deleted snippets from kNN, and re-indexes everything when the vectors change encoder', async () => {
    const victim = await t.db.article.findFirstOrThrow({ orderBy: { id: 'asc' }, include: { snippets: true } });
    await t.db.article.delete({ where: { id: victim.id } });
    await runIndex(t.db, t.config, { progress: false });
    await closeSearchIndexes();
    const ix = await openSearchIndexes(t.config, t.db);
    const [q] = await ix.encoder.embed([victim.title]);
    const ids = (await ix.dense!.search(q!, 100)).map((h) => h.snippetId);
    expect(ids.some((id) => victim.snippets.some((s) => s.id === id))).toBe(false);
    // Without vectors the target differs (no encoder in it): the index is dropped and written again.
    const plain = { ...t.config, elasticsearchDense: false };
    const again = await runIndex(t.db, plain, { progress: false });
    expect(again.bm25.added).toBe(await t.db.snippet.count());
    expect([...(await docs()).values()].some((d) => 'vector' in d)).toBe(false);
  }, 180_000);
});
