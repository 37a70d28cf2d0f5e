/**
 * Hybrid search through the one pipeline with the Elasticsearch backend on a real node
 * (testing/es.ts): BM25 in Elasticsearch with the dense side in FAISS, and both in Elasticsearch
 * (QUIN_ES_DENSE, kNN), answer what the embedded backend (FTS5 + FAISS) answers on the same
 * database — the same articles in the same order for BM25, dense and hybrid queries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSearchIndexes, openSearchIndexes, runIndex } from '../indexer';
import { faissAvailable } from '../indexer/dense/faiss-native';
import { addArticle, TOPICS } from '../indexer/test-corpus';
import type { Config } from '../lib/config';
import { createTestDb, type TestDb } from '../testing/db';
import { dropIndexes, sharedEs, uniqueIndex, type EsNode } from '../testing/es';
import { rankingOptions } from './context';
import { search } from './pipeline';

let es: EsNode;
let t: TestDb;
const prefix = uniqueIndex('hybrid-test');

const QUERIES = [
  'Vitamin D supplements do not prevent fractures in older adults',
  'The central bank raised interest rates because inflation is high',
  'Solar panels brought electricity to remote villages',
  'A late goal won the cup final',
];

async function urls(config: Config, q: string, mode: 'bm25' | 'dense' | 'hybrid'): Promise<string[]> {
  await closeSearchIndexes();
  const indexes = await openSearchIndexes(config, t.db);
  const ctx = { indexes, db: t.db, provider: t.provider, options: rankingOptions(config, {}, indexes.encoder) };
  const res = await search({ q, mode, halfLifeDays: null, rerank: false, verdict: false }, ctx);
  return res.results.map((r) => r.url);
}

describe.skipIf(!faissAvailable())('hybrid search with the Elasticsearch backend', () => {
  beforeAll(async () => {
    es = await sharedEs();
    t = await createTestDb();
    for (const a of TOPICS) await addArticle(t.db, a);
    await runIndex(t.db, t.config, { progress: false });
  }, 300_000);
  afterAll(async () => {
    await closeSearchIndexes();
    await t?.cleanup();
    await dropIndexes(es.url, prefix);
    await es?.remove();
  });

  for (const dense of [false, true]) {
    it(`answers as FTS5 + FAISS does (${dense ? 'vectors in Elasticsearch too' : 'vectors in FAISS'})`, async () => {
      const config: Config = { ...t.config, elasticsearchUrl: es.url, elasticsearchIndex: `${prefix}-${dense}`, elasticsearchDense: dense };
      await runIndex(t.db, config, { progress: false });
      const indexes = await openSearchIndexes(config, t.db);
      expect(indexes.bm25.backend).toBe('elasticsearch');
      for (const q of QUERIES) {
        for (const mode of ['bm25', 'dense', 'hybrid'] as const) {
          const want = await urls(t.config, q, mode);
          expect(want.length, `${mode}: ${q}`).toBeGreaterThan(0);
          expect(await urls(config, q, mode), `${mode}: ${q}`).toEqual(want);
        }
      }
    }, 180_000);
  }
});
