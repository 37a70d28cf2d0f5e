import { describe, expect, it } from 'vitest';
import { percentile, summarize } from './stats';

describe('percentile (nearest rank)', () => {
  it('matches hand-computed ranks', () => {
    const v = [15, 20, 35, 40, 50];
    expect(percentile(v, 30)).toBe(20); // ceil(1.5) = 2nd
    expect(percentile(v, 40)).toBe(20); // ceil(2) = 2nd
    expect(percentile(v, 50)).toBe(35);
    expect(percentile(v, 100)).toBe(50);
    expect(percentile([3, 1, 2], 50)).toBe(2);
    expect(percentile([], 50)).toBeNull();
    expect(() => percentile(v, 0)).toThrow(RangeError);
  });
  it('p95 and p99 of 1..100 are 95 and 99', () => {
    const v = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(summarize(v)).toEqual({ n: 100, p50: 50, p95: 95, p99: 99, mean: 50.5 });
  });
});
