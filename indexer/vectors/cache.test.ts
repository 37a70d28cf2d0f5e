import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/paths';
import { VectorCache } from './cache';

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-cache-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const vec = (seed: number, dim = 8) => Float32Array.from({ length: dim }, (_, i) => Math.sin(seed * 31 + i));

function segments(cache: VectorCache): string[] {
  return fs
    .readdirSync(cache.dir)
    .filter((f) => f.startsWith('seg-'))
    .map((f) => path.join(cache.dir, f));
}

describe('sentence-vector cache', () => {
  it('returns what was put, across reopen, and null for the rest', () => {
    const dir = tmp();
    const a = new VectorCache(dir, 'enc-a', 8);
    a.put(['alpha', 'beta'], [vec(1), vec(2)]);
    expect(a.get(['beta', 'gamma'])).toEqual([vec(2), null]);
    a.close();
    const b = new VectorCache(dir, 'enc-a', 8);
    expect(b.size).toBe(2);
    expect(b.get(['alpha'])[0]).toEqual(vec(1));
    // Another encoder never sees these vectors.
    expect(new VectorCache(dir, 'enc-b', 8).get(['alpha'])).toEqual([null]);
    b.close();
  });

  it('stores binary float32, not JSON', () => {
    const c = new VectorCache(tmp(), 'enc', 8);
    c.put(['x'], [vec(3)]);
    const [file] = segments(c);
    expect(fs.statSync(file!).size).toBe(16 + 16 + 8 * 4 + 4);
    c.close();
  });

  it('detects a torn last record and a corrupted record instead of reading them', () => {
    const dir = tmp();
    const c = new VectorCache(dir, 'enc', 8);
    c.put(['one', 'two', 'three'], [vec(1), vec(2), vec(3)]);
    c.close();
    const [file] = segments(new VectorCache(dir, 'enc', 8));
    const rec = 16 + 8 * 4 + 4;
    // Flip a byte inside record 2's vector, and cut record 3 short (a crash mid-write).
    const buf = fs.readFileSync(file!);
    buf[16 + rec + 20] = buf[16 + rec + 20]! ^ 0xff;
    fs.writeFileSync(file!, buf.subarray(0, buf.length - 10));
    const r = new VectorCache(dir, 'enc', 8);
    expect(r.get(['one', 'two', 'three'])).toEqual([vec(1), null, null]);
    expect(r.stats().corrupt).toBe(1);
    // Re-embedding after the crash repairs it.
    r.put(['two', 'three'], [vec(2), vec(3)]);
    expect(new VectorCache(dir, 'enc', 8).get(['two', 'three'])).toEqual([vec(2), vec(3)]);
  });

  it('sees vectors another writer appended after open', () => {
    const dir = tmp();
    const reader = new VectorCache(dir, 'enc', 8);
    const writer = new VectorCache(dir, 'enc', 8);
    writer.put(['late'], [vec(9)]);
    expect(reader.get(['late'])[0]).toEqual(vec(9));
  });

  it('merges many idle segments into one without losing a vector', () => {
    const dir = tmp();
    for (let i = 0; i < 6; i++) {
      const w = new VectorCache(dir, 'enc', 8);
      w.put([`s${i}`, 'dup'], [vec(i), vec(99)]);
      w.close();
    }
    const c = new VectorCache(dir, 'enc', 8);
    expect(segments(c)).toHaveLength(6);
    expect(c.compact(8, 0)).toBe(0); // not over the limit
    expect(c.compact(3, 0)).toBe(6);
    const after = new VectorCache(dir, 'enc', 8);
    expect(segments(after)).toHaveLength(1);
    expect(after.get(['s0', 's5', 'dup'])).toEqual([vec(0), vec(5), vec(99)]);
    expect(after.stats()).toMatchObject({ vectors: 7, corrupt: 0 });
    // The instance that compacted still answers from the files it had open.
    expect(c.get(['s3'])[0]).toEqual(vec(3));
  });

  it('is safe when two processes write at once', async () => {
    const dir = tmp();
    const script = (tag: string) => `
      const { VectorCache } = await import(${JSON.stringify(path.join(projectRoot(), 'indexer/vectors/cache.ts'))});
      const c = new VectorCache(${JSON.stringify(dir)}, 'enc', 8);
      for (let i = 0; i < 200; i++) {
        const v = Float32Array.from({ length: 8 }, (_, j) => Math.sin(i * 31 + j));
        c.put(['shared-' + i, '${tag}-' + i], [v, v]);
      }
      c.close();`;
    const run = (tag: string) =>
      new Promise<number>((resolve) => {
        const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(tag)], {
          cwd: projectRoot(),
          stdio: 'inherit',
        });
        p.on('exit', (code) => resolve(code ?? 1));
      });
    expect(await Promise.all([run('a'), run('b')])).toEqual([0, 0]);
    const c = new VectorCache(dir, 'enc', 8);
    expect(c.stats().corrupt).toBe(0);
    expect(c.size).toBe(600);
    const keys = Array.from({ length: 200 }, (_, i) => [`shared-${i}`, `a-${i}`, `b-${i}`]).flat();
    expect(c.get(keys).every((v) => v !== null)).toBe(true);
    expect(c.get(['shared-7'])[0]).toEqual(vec(7));
  }, 60_000);
});
