import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GuardedIndex } from './faiss-native';
import { FRESH_ROWS } from './f16-rows';
import { UsearchIndex } from './usearch-native';
import { stopSearchThread } from './usearch-thread';
import { loopGaps } from '../../testing/event-loop';
import { isLossyLayout, readVectorIndex } from './vector-index';
import { removeStrayFiles } from '../files';
import { errorCode as code, randomUnitVectors as random, unit } from './test-vectors';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** `n` random vectors in a graph of the layout, written as checkpoint 1 in a fresh directory. */
function written(n: number, dim: number, factory: string, seed: number) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-usearch-'));
  const xs = random(n, dim, seed);
  const built = UsearchIndex.create(dim, factory);
  built.add(xs);
  const file = path.join(dir, 'dense-v1.usearch');
  built.writeFile(file);
  return { xs, built, file };
}

describe('USearch HNSW layout', () => {
  it('finds what exact search finds, with positions as labels and cosines as scores', () => {
    const xs = random(3000, 32);
    const ix = UsearchIndex.create(32, 'usearch:HNSW16,f16');
    ix.add(xs.slice(0, 1000));
    ix.add(xs.slice(1000));
    expect(ix.ntotal).toBe(3000);
    const exact = GuardedIndex.create(32, 'Flat');
    exact.add(xs);
    let found = 0;
    for (const q of random(50, 32, 7)) {
      const want = exact.search(q, 10);
      const got = ix.search(q, 10);
      found += got.labels.filter((l) => want.labels.includes(l)).length;
      // f16 codes: the cosine of a position agrees with the exact one to ~1e-3.
      got.labels.forEach((l, i) => {
        const j = want.labels.indexOf(l);
        if (j >= 0) expect(Math.abs(got.scores[i]! - want.scores[j]!)).toBeLessThan(5e-3);
      });
    }
    expect(found / 500).toBeGreaterThan(0.95);
    // Its own vector comes back first.
    expect(ix.search(xs[1234]!, 1).labels).toEqual([1234]);
  });

  it('is written atomically, memory-mapped read-only for readers, loaded whole to be extended', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-usearch-'));
    const xs = random(500, 16, 3);
    const ix = UsearchIndex.create(16, 'usearch:HNSW8,i8');
    ix.add(xs.slice(0, 400));
    const file = path.join(dir, 'dense-v1.usearch');
    expect(ix.writeFile(file)).toBeGreaterThan(0);
    expect(fs.readdirSync(dir)).toEqual(['dense-v1.usearch']);

    const mapped = readVectorIndex(file, 16, 'usearch:HNSW8,i8');
    expect(mapped.ntotal).toBe(400);
    expect(mapped.search(xs[7]!, 1).labels).toEqual([7]);
    expect(code(() => mapped.add([xs[450]!]))).toBe('INTERNAL');
    expect(mapped.setSearchParam('efSearch', 300)).toBe(true);
    expect(mapped.search(xs[8]!, 1).labels).toEqual([8]);
    expect(mapped.setSearchParam('nprobe', 4)).toBe(false);

    const writable = readVectorIndex(file, 16, 'usearch:HNSW8,i8', true);
    writable.add(xs.slice(400));
    expect(writable.ntotal).toBe(500);
    expect(writable.search(xs[480]!, 1).labels).toEqual([480]);
  });

  it('searches a served index in its own thread, and in the process once that thread is gone', async () => {
    const { xs, built, file } = written(2000, 16, 'usearch:HNSW16,f16', 5);
    const served = UsearchIndex.read(file, 16, 'usearch:HNSW16,f16');
    const queries = random(20, 16, 9);
    const inline = queries.map((q) => built.search(q, 50));
    // Many in flight at once, each answered with its own results.
    expect(await Promise.all(queries.map((q) => served.searchAsync(q, 50)))).toEqual(inline);
    expect(served.search(queries[3]!, 50)).toEqual(inline[3]);
    await stopSearchThread();
    expect(served.ntotal).toBe(2000);
    expect(await served.searchAsync(queries[4]!, 50)).toEqual(inline[4]);
    expect(served.search(queries[5]!, 50)).toEqual(inline[5]);
    // A newly opened index starts a new thread.
    const again = UsearchIndex.read(file, 16, 'usearch:HNSW16,f16');
    expect(await again.searchAsync(xs[77]!, 1)).toMatchObject({ labels: [77] });
    again.close();
  });

  it('keeps the event loop free while the thread searches', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-usearch-'));
    const built = UsearchIndex.create(32, 'usearch:HNSW16,f16');
    built.add(random(20_000, 32, 11));
    const file = path.join(dir, 'dense-v1.usearch');
    built.writeFile(file);
    const served = UsearchIndex.read(file, 32, 'usearch:HNSW16,f16');
    served.setSearchParam('efSearch', 4000);
    const queries = random(150, 32, 13);
    const { result: hits, ranMs, longestGapMs } = await loopGaps(() => Promise.all(queries.map((q) => served.searchAsync(q, 2000))));
    expect(hits.every((h) => h.labels.length === 2000)).toBe(true);
    expect(ranMs).toBeGreaterThan(200);
    // Searched here, the 150 searches would hold the loop for all of `ranMs`.
    expect(longestGapMs, `searches ${Math.round(ranMs)} ms, longest timer gap ${Math.round(longestGapMs)} ms`).toBeLessThan(
      Math.max(50, ranMs / 4),
    );
    served.close();
  });

  it('walks an i8+f16 graph over int8 codes and scores its candidates with the f16 vectors kept beside it', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-usearch-'));
    const xs = random(4000, 32, 21);
    const ix = UsearchIndex.create(32, 'usearch:HNSW16,i8+f16');
    ix.add(xs.slice(0, 3000));
    const exact = GuardedIndex.create(32, 'Flat');
    exact.add(xs);
    const file = path.join(dir, 'dense-v1.usearch');
    ix.writeFile(file);
    expect(fs.readdirSync(dir).sort()).toEqual(['dense-v1.usearch', 'dense-v1.usearch.f16']);
    expect(fs.statSync(`${file}.f16`).size).toBe(3000 * 32 * 2);
    // Extended after its first file: the rows come from that file and from memory.
    ix.add(xs.slice(3000));
    const served = (() => {
      const second = path.join(dir!, 'dense-v2.usearch');
      ix.writeFile(second);
      return readVectorIndex(second, 32, 'usearch:HNSW16,i8+f16');
    })();
    removeStrayFiles(dir, 'dense-', 'dense-v2.usearch');
    expect(fs.readdirSync(dir).sort()).toEqual(['dense-v2.usearch', 'dense-v2.usearch.f16']);
    let found = 0;
    for (const q of random(50, 32, 23)) {
      const want = exact.search(q, 10);
      // Asked for 50 (the pipeline asks for 500): the true top 10 are among the int8 walk's 50, and the f16 scores bring them up.
      for (const all of [ix.search(q, 50), served.search(q, 50), await served.searchAsync(q, 50)]) {
        const got = { labels: all.labels.slice(0, 10), scores: all.scores.slice(0, 10) };
        found += got.labels.filter((l) => want.labels.includes(l)).length / 3;
        // Scored with f16 vectors, in order: the cosine agrees with the exact one to ~1e-3.
        got.labels.forEach((l, i) => {
          const j = want.labels.indexOf(l);
          if (j >= 0) expect(Math.abs(got.scores[i]! - want.scores[j]!)).toBeLessThan(2e-3);
          if (i) expect(got.scores[i]!).toBeLessThanOrEqual(got.scores[i - 1]!);
        });
      }
    }
    expect(found / 500).toBeGreaterThan(0.97);
    // Scored in the search thread (searchAsync) or here (search): the same walk, the same scores to the last bit.
    for (const q of random(5, 32, 27)) expect(await served.searchAsync(q, 40)).toEqual(served.search(q, 40));
    expect(served.search(xs[3456]!, 1).labels).toEqual([3456]);
    expect(served.search(xs[3456]!, 1).scores[0]).toBeCloseTo(1, 3);
    // Loaded whole to be extended, its vectors still read from the file beside it.
    const writable = readVectorIndex(path.join(dir, 'dense-v2.usearch'), 32, 'usearch:HNSW16,i8+f16', true);
    writable.add(random(10, 32, 29));
    expect(writable.ntotal).toBe(4010);
    expect(writable.search(xs[12]!, 1).labels).toEqual([12]);
    // Closed (its checkpoint replaced) while a search is with the thread: that search is still scored.
    const pending = served.searchAsync(xs[99]!, 5);
    served.close();
    expect((await pending).labels[0]).toBe(99);
    writable.close();
  });

  it('scores its newest rows exactly beside the walk: what was just added is found whatever the graph did with it', async () => {
    // Random vectors are the walk's hardest case, and efSearch 1 leaves it the fewest candidates (15
    // for k = 10): it misses much of the exact top 10. The newest FRESH_ROWS rows are scored whole.
    const n = FRESH_ROWS + 1000;
    const { xs, file } = written(n, 64, 'usearch:HNSW16,i8+f16', 41);
    const served = readVectorIndex(file, 64, 'usearch:HNSW16,i8+f16');
    expect(served.setSearchParam('efSearch', 1)).toBe(true);
    const exact = GuardedIndex.create(64, 'Flat');
    exact.add(xs);
    let fresh = 0;
    let old = 0;
    let oldFound = 0;
    for (const q of random(40, 64, 43)) {
      const want = exact.search(q, 10);
      for (const got of [served.search(q, 10), await served.searchAsync(q, 10)]) {
        want.labels.forEach((l) => {
          if (l >= n - FRESH_ROWS) {
            fresh++;
            expect(got.labels).toContain(l);
          } else {
            old++;
            if (got.labels.includes(l)) oldFound++;
          }
        });
      }
    }
    // Both kinds were asked for, and the older rows, left to the walk, were missed often enough that the
    // newest would have been too.
    expect(fresh).toBeGreaterThan(100);
    expect(old).toBeGreaterThan(50);
    expect(oldFound / old).toBeLessThan(0.9);
    served.close();
  });

  it('answers from a checkpoint whose files the indexer removed, as a reader does while the next one loads', async () => {
    const { xs, file } = written(2000, 32, 'usearch:HNSW16,i8+f16', 31);
    const served = readVectorIndex(file, 32, 'usearch:HNSW16,i8+f16');
    // Not searched yet when the next checkpoint's write removes this one's graph and rows.
    removeStrayFiles(dir!, 'dense-', 'dense-v2.usearch');
    expect(fs.readdirSync(dir!)).toEqual([]);
    expect((await served.searchAsync(xs[7]!, 5)).labels[0]).toBe(7);
    expect(served.search(xs[8]!, 5).labels[0]).toBe(8);
    served.close();
  });

  it('refuses an i8+f16 graph without its vectors, or with vectors of another size', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-usearch-'));
    const ix = UsearchIndex.create(16, 'usearch:HNSW16,i8+f16');
    ix.add(random(100, 16, 31));
    const file = path.join(dir, 'dense-v1.usearch');
    ix.writeFile(file);
    fs.truncateSync(`${file}.f16`, 99 * 16 * 2);
    expect(code(() => readVectorIndex(file, 16, 'usearch:HNSW16,i8+f16'))).toBe('INDEX_CORRUPT');
    fs.rmSync(`${file}.f16`);
    expect(code(() => readVectorIndex(file, 16, 'usearch:HNSW16,i8+f16'))).toBe('INDEX_CORRUPT');
    expect(code(() => UsearchIndex.create(16, 'usearch:HNSW16,f16+f16'))).toBe('CONFIG_INVALID');
  });

  it('refuses what it cannot do instead of aborting', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-usearch-'));
    expect(code(() => UsearchIndex.create(8, 'usearch:HNSW16,q4'))).toBe('CONFIG_INVALID');
    expect(code(() => UsearchIndex.create(8, 'usearch:HNSW2,f16'))).toBe('CONFIG_INVALID');
    expect(code(() => UsearchIndex.create(0, 'usearch:HNSW16,f16'))).toBe('INVALID_INPUT');
    const ix = UsearchIndex.create(4, 'usearch:HNSW16,f16');
    expect(ix.search(unit(1, 0, 0, 0), 5)).toEqual({ labels: [], scores: [] });
    expect(code(() => ix.add([Float32Array.of(1, 0, 0)]))).toBe('INVALID_INPUT');
    expect(code(() => ix.add([Float32Array.of(1, Number.NaN, 0, 0)]))).toBe('INVALID_INPUT');
    expect(code(() => UsearchIndex.read(path.join(dir!, 'none.usearch'), 4, 'usearch:HNSW16,f16'))).toBe('INDEX_UNAVAILABLE');
    fs.writeFileSync(path.join(dir, 'empty.usearch'), '');
    expect(code(() => UsearchIndex.read(path.join(dir!, 'empty.usearch'), 4, 'usearch:HNSW16,f16'))).toBe('INDEX_CORRUPT');
    fs.writeFileSync(path.join(dir, 'junk.usearch'), 'this is not an index');
    expect(code(() => UsearchIndex.read(path.join(dir!, 'junk.usearch'), 4, 'usearch:HNSW16,f16'))).toBe('INDEX_CORRUPT');
  });

  it('says which layouts store lossy codes', () => {
    expect(isLossyLayout('usearch:HNSW16,f16')).toBe(true);
    expect(isLossyLayout('usearch:HNSW16,f32')).toBe(false);
    expect(isLossyLayout('usearch:HNSW16,i8+f16')).toBe(true);
    expect(isLossyLayout('IVF1024,Flat')).toBe(false);
    expect(isLossyLayout('IVF16,SQ8')).toBe(true);
  });
});
