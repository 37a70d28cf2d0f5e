import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../testing/db';
import { readPositionMap } from './dense/dense-index';
import { commitDenseCheckpoint, forEachDenseEntry, readState } from './state';
import { addArticle, TOPICS } from './test-corpus';

// The position map's writes, on the test database (SQLite, or PostgreSQL under QUIN_TEST_DB=postgres).
let t: TestDb;
const live: number[] = [];

beforeAll(async () => {
  t = await createTestDb();
  for (const a of TOPICS.slice(0, 2)) live.push(...(await addArticle(t.db, a)).snippetIds);
}, 120_000);
afterAll(async () => {
  await t.cleanup();
});

const state = (ntotal: number) => ({
  backend: 'faiss',
  encoderId: 'test',
  dim: 4,
  factory: 'Flat',
  pooling: 'mean',
  file: 'dense-v1.faiss',
  fileSha256: null,
  fileBytes: 10,
  ntotal,
});

const entries = async () =>
  (await t.db.denseEntry.findMany({ orderBy: { position: 'asc' } })).map((e) => [e.position, e.snippetId] as [number, number]);

describe('commitDenseCheckpoint', () => {
  it('maps every position whose snippet exists and leaves a deleted snippet’s position a tombstone', async () => {
    expect(live.length).toBeGreaterThan(2);
    const gone = Math.max(...live) + 1000;
    const cp = [...live.map((snippetId, i) => ({ position: i, snippetId })), { position: live.length, snippetId: gone }];
    const v = await commitDenseCheckpoint(t.db, { fromVersion: null, state: state(cp.length), entries: cp, replace: true });
    expect(v).toBe(1);
    expect(await entries()).toEqual(live.map((id, i) => [i, id]));
    expect((await readState(t.db, 'dense'))?.ntotal).toBe(live.length + 1);
  });

  it('adds to the map, or replaces it whole, and refuses a stale version', async () => {
    await commitDenseCheckpoint(t.db, { fromVersion: 1, state: state(10), entries: [], replace: true });
    const half = live.slice(0, 2).map((snippetId, i) => ({ position: 100 + i, snippetId }));
    await commitDenseCheckpoint(t.db, { fromVersion: 2, state: state(102), entries: half, replace: false });
    const rest = live.slice(2).map((snippetId, i) => ({ position: 200 + i, snippetId }));
    await commitDenseCheckpoint(t.db, { fromVersion: 3, state: state(300), entries: rest, replace: false });
    expect(await entries()).toEqual([...half, ...rest].map((e) => [e.position, e.snippetId]));
    await expect(commitDenseCheckpoint(t.db, { fromVersion: 3, state: state(1), entries: [], replace: true })).rejects.toThrow(
      /changed under this indexer/,
    );
  });
});

describe('readPositionMap', () => {
  it('maps positions to snippets from the pages of the map, counts tombstones, and refuses a position past the index', async () => {
    const cp = live.map((snippetId, i) => ({ position: i + 1, snippetId }));
    await commitDenseCheckpoint(t.db, { fromVersion: 4, state: state(live.length + 2), entries: cp, replace: true });
    const { positions, tombstones } = await readPositionMap(t.db, live.length + 2);
    expect([...positions]).toEqual([-1, ...live, -1]);
    expect(tombstones).toBe(2);
    await expect(readPositionMap(t.db, live.length)).rejects.toMatchObject({ code: 'INDEX_CORRUPT' });
  });
});

describe('forEachDenseEntry', () => {
  it('visits every entry once, in position order, across pages of any size', async () => {
    // Positions with gaps (tombstones), so a page's last position is not its count.
    const cp = live.map((snippetId, i) => ({ position: 3 * i + 2, snippetId }));
    await commitDenseCheckpoint(t.db, { fromVersion: 5, state: state(3 * live.length + 2), entries: cp, replace: true });
    const want = cp.map((e) => [e.position, e.snippetId]);
    for (const pageSize of [1, 2, live.length, live.length + 1]) {
      const seen: [number, number][] = [];
      await forEachDenseEntry(t.db, (position, snippetId) => seen.push([position, snippetId]), pageSize);
      expect(seen, `pages of ${pageSize}`).toEqual(want);
    }
  });
});
