import { describe, expect, it } from 'vitest';
import { trainingSample } from './sync';

describe('IVF training sample', () => {
  it('spreads over the whole corpus, not its first ids (ids follow import order)', () => {
    const ids = Array.from({ length: 86_779 }, (_, i) => i + 1);
    const s = trainingSample(ids, 50_000);
    expect(s).toHaveLength(50_000);
    expect(new Set(s).size).toBe(50_000);
    expect(s[0]).toBe(1);
    expect(s.at(-1)!).toBeGreaterThan(86_000); // the last corpus imported is sampled too
    expect(s.filter((id) => id > 70_000).length).toBeGreaterThan(9_000);
    expect(trainingSample([3, 5, 7], 10)).toEqual([3, 5, 7]);
  });
});
