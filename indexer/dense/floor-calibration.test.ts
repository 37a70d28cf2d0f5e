import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  calibrateFloor,
  floorFits,
  floorFrom,
  MARGIN,
  nonsenseQueries,
  readFloor,
  wordSaladQueries,
  writeFloor,
} from './floor-calibration';

describe('relevance floor calibration', () => {
  it('puts matchMin just above the best nonsense cosine and onlyMin part of the way to 1', () => {
    // USE-lite on news: nonsense reaches ~0.45 → about the hand-set 0.5 / 0.7.
    expect(floorFrom([0.31, 0.45, 0.2])).toEqual({ matchMin: 0.5, onlyMin: 0.7 });
    // A static table whose word pieces reach 0.85: dense alone admits only near-duplicates.
    expect(floorFrom([0.85])).toEqual({ matchMin: 0.9, onlyMin: 0.94 });
    expect(floorFrom([0.99]).matchMin).toBe(1);
  });

  it('makes the same nonsense and word-salad queries every time, words that mean nothing together', () => {
    const a = nonsenseQueries(50);
    expect(a).toEqual(nonsenseQueries(50));
    expect(a.every((q) => /^[a-z]+( [a-z]+){0,3}$/.test(q))).toBe(true);
    const salad = wordSaladQueries(['Central bank raises rates', 'Vitamin D and fractures', 'Floods in Pakistan'], 20);
    expect(salad).toHaveLength(20);
    expect(salad.every((q) => q.split(' ').length >= 3)).toBe(true);
    expect(wordSaladQueries([], 5)).toEqual([]);
  });

  it('measures with the encoder and the index it is given, ignoring texts without a known token', async () => {
    const unit = (x: number) => Float32Array.from([x, Math.sqrt(1 - x * x)]);
    let calls = 0;
    const floor = await calibrateFloor({
      encoderId: 'static:test@abc',
      pooling: 'mean-title',
      ntotal: 100,
      embed: async (texts) => texts.map(() => (calls++ % 10 === 0 ? new Float32Array(2) : unit(0.6))),
      best: (v) => v[0]!, // the cosine with the passage (1, 0)
      sampleTexts: ['some real words here', 'and a few more of them'],
    });
    expect(floor.nonsense.max).toBeCloseTo(0.6, 5);
    expect(floor.matchMin).toBeCloseTo(0.6 + MARGIN, 5);
    expect(floor.queries).toBeLessThan(400); // the zero vectors were left out
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-floor-'));
    writeFloor(dir, floor);
    expect(readFloor(dir)).toEqual(floor);
    expect(floorFits(readFloor(dir), 'static:test@abc', 'mean-title', 110)).toBe(true);
    expect(floorFits(readFloor(dir), 'static:test@abc', 'mean-title', 130)).toBe(false); // grew by 30%
    expect(floorFits(readFloor(dir), 'onnx:other@abc', 'mean-title', 100)).toBe(false);
    fs.writeFileSync(path.join(dir, 'relevance-floor.json'), '{"torn');
    expect(readFloor(dir)).toBeNull();
  });
});
