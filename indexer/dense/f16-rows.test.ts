import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { F16_VALUES, F16Rows, freshBest, int8Codes, toF16, unitRows } from './f16-rows';
import { errorCode as code, randomUnitVectors as random } from './test-vectors';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('f16 rows', () => {
  it('rounds numbers to the nearest half-precision value and reads them back', () => {
    // Exactly representable values come back exactly.
    for (const x of [0, 1, -1, 0.5, 2 ** -14, 2 ** -24, 65504, -0.0999755859375]) expect(F16_VALUES[toF16(x)]).toBe(x);
    expect(toF16(1)).toBe(0x3c00);
    expect(toF16(-2)).toBe(0xc000);
    expect(toF16(1e6)).toBe(0x7c00);
    // Between two halves the nearer one wins; a tie goes to the even mantissa.
    expect(F16_VALUES[toF16(1 + 2 ** -11 + 2 ** -13)]).toBe(1 + 2 ** -10);
    expect(F16_VALUES[toF16(1 + 2 ** -11)]).toBe(1);
    expect(F16_VALUES[toF16(1 + 3 * 2 ** -11)]).toBe(1 + 2 * 2 ** -10);
    // Every value of unit vectors within half-precision's relative error.
    for (const v of random(50, 64, 3))
      for (const x of v) expect(Math.abs(F16_VALUES[toF16(x)]! - x)).toBeLessThanOrEqual(Math.max(Math.abs(x) * 2 ** -11, 2 ** -25));
  });

  it('scores rows by cosine from memory and from the file it writes, which it then reads', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-f16-'));
    const xs = random(40_000, 8, 5);
    const rows = new F16Rows(8);
    rows.add(xs.slice(0, 20_000));
    const q = xs[7]!;
    const exact = (i: number) => xs[i]!.reduce((s, x, j) => s + x * q[j]!, 0);
    const check = (r: F16Rows, ids: number[]) =>
      r.cosines(q, ids).forEach((c, i) => expect(Math.abs(c - exact(ids[i]!))).toBeLessThan(2e-3));
    check(rows, [7, 0, 19_999, 16_384]);
    expect(rows.cosines(q, [7])[0]).toBeCloseTo(1, 3);

    const first = path.join(dir, 'dense-v1.usearch.f16');
    rows.write(first);
    expect(fs.statSync(first).size).toBe(20_000 * 8 * 2);
    rows.add(xs.slice(20_000));
    expect(rows.size).toBe(40_000);
    check(rows, [3, 19_999, 20_000, 39_999]);
    // The next file holds the old one's rows and the new ones; the old one can go.
    const second = path.join(dir, 'dense-v2.usearch.f16');
    rows.write(second);
    fs.rmSync(first);
    check(rows, [5, 25_000]);
    rows.close();
    const read = F16Rows.open(second, 8, 40_000);
    check(read, [1, 20_001, 39_998]);
    read.close();
  });

  it('refuses a missing or damaged file, or one that does not match its graph', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-f16-'));
    const file = path.join(dir, 'v.f16');
    expect(code(() => F16Rows.open(file, 4, 1))).toBe('INDEX_CORRUPT');
    fs.writeFileSync(file, Buffer.alloc(13));
    expect(code(() => F16Rows.open(file, 4, 1))).toBe('INDEX_CORRUPT');
    fs.writeFileSync(file, Buffer.alloc(16));
    expect(code(() => F16Rows.open(file, 4, 3))).toBe('INDEX_CORRUPT');
    const two = F16Rows.open(file, 4, 2);
    // Cut short after it was opened: said, not read as zeros.
    fs.truncateSync(file, 8);
    expect(code(() => two.cosines(Float32Array.of(1, 0, 0, 0), [1]))).toBe('INDEX_CORRUPT');
    expect(code(() => two.fresh())).toBe('INDEX_CORRUPT');
    two.close();
  });

  it("scores the newest rows whole and keeps those that reach the walk's k-th best", () => {
    const rows = [Float32Array.of(1, 0), Float32Array.of(0, 2), Float32Array.of(3, 3)];
    const unit = unitRows(Uint16Array.from(rows.flatMap((r) => [...r].map(toF16))), F16_VALUES, 2);
    expect([...unit].map((x) => +x.toFixed(4))).toEqual([1, 0, 0, 1, 0.7071, 0.7071]);
    // Rows at positions 10, 11, 12; the walk's scores 0.9, 0.5: the k-th best is the floor.
    const q = Float32Array.of(2, 0);
    expect(freshBest(q, unit, 10, [0.9, 0.5], 2)).toEqual({ labels: [10, 12], scores: [1, expect.closeTo(0.7071, 4)] });
    expect(freshBest(q, unit, 10, [0.9, 0.5], 1).labels).toEqual([10]);
    // Fewer walk candidates than k: every fresh row counts.
    expect(freshBest(q, unit, 10, [0.9], 2).labels).toEqual([10, 11, 12]);
  });

  it('codes each vector in int8 scaled to its own largest component', () => {
    const codes = int8Codes([Float32Array.of(0.5, -0.3, 0.01, 0), Float32Array.of(0, 0, 0, 0)], 4);
    expect([...codes]).toEqual([127, -76, 3, 0, 0, 0, 0, 0]);
  });
});
