import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { faissAvailable, GuardedIndex, minTrainingPoints } from './faiss-native';
import { errorCode as code, randomUnitVectors as random, unit } from './test-vectors';

describe.skipIf(!faissAvailable())('guarded faiss-node (every call that would abort the process is refused first)', () => {
  it('searches an exact inner-product index', () => {
    const ix = GuardedIndex.create(3, 'Flat');
    ix.add([unit(1, 0, 0), unit(0, 1, 0), unit(1, 1, 0)]);
    const r = ix.search(unit(0, 1, 0), 2);
    expect(r.labels).toEqual([1, 2]);
    expect(r.scores[0]).toBeCloseTo(1);
  });

  it('refuses bad dimensions, non-finite vectors and bad factory strings', () => {
    const ix = GuardedIndex.create(3, 'Flat');
    expect(code(() => ix.add([Float32Array.from([1, 0])]))).toBe('INVALID_INPUT');
    expect(code(() => ix.add([Float32Array.from([NaN, 0, 0])]))).toBe('INVALID_INPUT');
    expect(code(() => ix.search(Float32Array.from([1, 0]), 1))).toBe('INVALID_INPUT');
    expect(code(() => GuardedIndex.create(0, 'Flat'))).toBe('INVALID_INPUT');
    expect(code(() => GuardedIndex.create(3, 'NoSuchIndex'))).toBe('CONFIG_INVALID');
    expect(code(() => GuardedIndex.create(3, 'Flat; rm -rf /'))).toBe('CONFIG_INVALID');
  });

  it('answers k = 0, k > ntotal and an empty index without calling FAISS wrongly', () => {
    const ix = GuardedIndex.create(2, 'Flat');
    expect(ix.search(unit(1, 0), 5)).toEqual({ labels: [], scores: [] });
    ix.add([unit(1, 0)]);
    expect(ix.search(unit(1, 0), 0)).toEqual({ labels: [], scores: [] });
    expect(ix.search(unit(1, 0), 1000).labels).toEqual([0]);
    expect(ix.search(unit(1, 0), NaN).labels).toEqual([]);
  });

  it('refuses to add to an untrained IVF index and to train it with too few points', () => {
    const ix = GuardedIndex.create(4, 'IVF16,Flat');
    expect(ix.isTrained).toBe(false);
    expect(code(() => ix.add(random(10, 4)))).toBe('INTERNAL');
    expect(code(() => ix.train(random(10, 4)))).toBe('INVALID_INPUT');
    expect(minTrainingPoints('IVF16,Flat')).toBe(16);
    ix.train(random(400, 4));
    ix.add(random(50, 4, 7));
    expect(ix.ntotal).toBe(50);
  });

  it('searches more inverted lists with a larger nprobe, and says when a parameter does not apply', () => {
    const vecs = random(2000, 8, 3);
    const ix = GuardedIndex.create(8, 'IVF32,Flat');
    ix.train(vecs);
    ix.add(vecs);
    const exact = GuardedIndex.create(8, 'Flat');
    exact.add(vecs);
    const recall = (nprobe: number) => {
      expect(ix.setSearchParam('nprobe', nprobe)).toBe(true);
      let hit = 0;
      for (const q of vecs.slice(0, 50)) {
        const want = new Set(exact.search(q, 20).labels);
        hit += ix.search(q, 20).labels.filter((l) => want.has(l)).length;
      }
      return hit / (50 * 20);
    };
    const low = recall(1);
    expect(recall(32)).toBe(1); // every list: exact
    expect(low).toBeLessThan(1);
    expect(exact.setSearchParam('nprobe', 8)).toBe(false);
    expect(code(() => ix.setSearchParam('nprobe', 0))).toBe('CONFIG_INVALID');
  });

  it('builds HNSW from a factory string and round-trips through a file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-faiss-'));
    const vecs = random(300, 8);
    const ix = GuardedIndex.create(8, 'HNSW16');
    ix.add(vecs);
    const file = path.join(dir, 'x.faiss');
    ix.writeFile(file);
    const back = GuardedIndex.read(file, 8, 'HNSW16');
    expect(back.ntotal).toBe(300);
    expect(back.search(vecs[42]!, 1).labels).toEqual([42]);
    expect(code(() => GuardedIndex.read(file, 16, 'HNSW16'))).toBe('INDEX_CORRUPT');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports a missing, empty or garbage file as an error, not a crash', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-faiss-'));
    expect(code(() => GuardedIndex.read(path.join(dir, 'none.faiss'), 4, 'Flat'))).toBe('INDEX_UNAVAILABLE');
    fs.writeFileSync(path.join(dir, 'empty.faiss'), '');
    expect(code(() => GuardedIndex.read(path.join(dir, 'empty.faiss'), 4, 'Flat'))).toBe('INDEX_CORRUPT');
    fs.writeFileSync(path.join(dir, 'junk.faiss'), 'this is not an index');
    expect(code(() => GuardedIndex.read(path.join(dir, 'junk.faiss'), 4, 'Flat'))).toBe('INDEX_CORRUPT');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
