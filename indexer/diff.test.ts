import { describe, expect, it } from 'vitest';
import { diffIds, duplicates, sampleIds } from './diff';

describe('id differences', () => {
  it('finds missing and stale ids', () => {
    expect(diffIds([1, 2, 3, 5], [2, 3, 4])).toEqual({ missing: [1, 5], stale: [4] });
    expect(diffIds([], [])).toEqual({ missing: [], stale: [] });
  });
  it('finds doubles', () => {
    expect(duplicates([3, 1, 3, 2, 1])).toEqual([1, 3]);
  });
  it('describes a few', () => {
    expect(sampleIds([1, 2, 3, 4, 5, 6, 7], 3)).toBe('7 (e.g. 1, 2, 3, …)');
    expect(sampleIds([])).toBe('0');
  });
});
