/**
 * Fault suite (docs/development.md): `quin index --verify` checks stored vectors in every dense index
 * layout. It sampled a Flat index only, so once the index became IVF (the default above 50,000
 * snippets) a position holding another snippet's vector went unnoticed. For each layout: the sample
 * is checked and clean, then two positions of the map are swapped and verify says so.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../testing/db';
import { faissAvailable } from './dense/faiss-native';
import { closeSearchIndexes, runIndex, verifyIndexes } from './index';
import { addArticle } from './test-corpus';

const PLACES = ['harbour', 'valley', 'airport', 'old town', 'river port', 'hill farm', 'station', 'market', 'coast road', 'stadium'];
const EVENTS = ['flooded after the storm', 'reopened to visitors', 'was sold to a developer', 'got a new mayor', 'closed for repairs'];

let t: TestDb | undefined;
afterEach(async () => {
  await closeSearchIndexes();
  await t?.cleanup();
  t = undefined;
});

/** Swaps the snippets of two map positions (each position then holds the other's vector). */
async function swapTwoPositions(db: TestDb['db']): Promise<void> {
  const [a, b] = await db.denseEntry.findMany({ orderBy: { position: 'asc' }, take: 2 });
  await db.denseEntry.delete({ where: { position: a!.position } });
  await db.denseEntry.update({ where: { position: b!.position }, data: { snippetId: a!.snippetId } });
  await db.denseEntry.create({ data: { position: a!.position, snippetId: b!.snippetId } });
}

describe.skipIf(!faissAvailable())('verify samples the stored vectors of every dense layout', () => {
  // IVF with nprobe 1: a plain search looks in one list of 16, verify must look in all of them.
  for (const factory of ['Flat', 'IVF16,Flat', 'HNSW16', 'IVF16,SQ8', 'usearch:HNSW16,f16', 'usearch:HNSW16,i8', 'usearch:HNSW16,i8+f16']) {
    it(`${factory}: the sample is checked, and a swapped position is found`, async () => {
      t = await createTestDb({ tuning: { faissFactory: factory, faissNprobe: 1 } });
      for (let i = 0; i < 60; i++) {
        const place = PLACES[i % PLACES.length]!;
        const sentences = EVENTS.map(
          (e, j) => `The ${place} number ${i} ${EVENTS[(i + j) % EVENTS.length]!} on day ${j + 1} (${e.length}).`,
        );
        await addArticle(t.db, {
          key: `v${i}`,
          title: `News from the ${place} ${i}`,
          sentences,
          source: 'wire',
          publishedAt: new Date(Date.UTC(2024, 0, 1 + i)),
        });
      }
      await runIndex(t.db, t.config, { progress: false });
      let report = await verifyIndexes(t.db, t.config, { sample: 500 });
      const dense = () => report.checks.find((c) => c.index.startsWith('dense'))!;
      expect(dense().facts.factory).toBe(factory);
      expect(dense().problems).toEqual([]);
      expect(Number(dense().facts.vectorsChecked)).toBeGreaterThan(50);

      await swapTwoPositions(t.db);
      report = await verifyIndexes(t.db, t.config, { sample: 500 });
      expect(dense().problems.join('\n')).toMatch(/FAISS positions hold the wrong vectors for 2 /);
    }, 120_000);
  }
});
