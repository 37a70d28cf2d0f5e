import { describe, expect, it } from 'vitest';
import { combineLabels, outcomeOf } from './combine';

describe('combineLabels', () => {
  it('refutes a compound claim when any part is refuted, supports it only when every part is supported', () => {
    expect(combineLabels(['SUPPORTED', 'REFUTED', 'SUPPORTED'])).toBe('REFUTED');
    expect(combineLabels(['SUPPORTED', 'SUPPORTED'])).toBe('SUPPORTED');
    expect(combineLabels(['SUPPORTED', 'NOT_ENOUGH_EVIDENCE'])).toBe('NOT_ENOUGH_EVIDENCE');
    expect(combineLabels(['SUPPORTED', 'MIXED'])).toBe('MIXED');
    expect(combineLabels(['MIXED', 'REFUTED'])).toBe('REFUTED');
    expect(combineLabels([])).toBe('NOT_ENOUGH_EVIDENCE');
  });
  it('counts three outcomes: supported, refuted, not settled', () => {
    expect(['SUPPORTED', 'REFUTED', 'MIXED', 'NOT_ENOUGH_EVIDENCE'].map((l) => outcomeOf(l as never))).toEqual([
      'supported',
      'refuted',
      'not_settled',
      'not_settled',
    ]);
  });
});
