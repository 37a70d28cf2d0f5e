import { describe, expect, it } from 'vitest';
import { decayed, recencyFactor, resolveHalfLife } from './decay';

const asOf = new Date('2024-06-01T00:00:00Z');
const daysBefore = (d: number) => new Date(asOf.getTime() - d * 86_400_000);

describe('recencyFactor', () => {
  it('halves the score every half-life', () => {
    expect(recencyFactor(daysBefore(0), asOf, 365)).toBe(1);
    expect(recencyFactor(daysBefore(365), asOf, 365)).toBeCloseTo(0.5, 12);
    expect(recencyFactor(daysBefore(730), asOf, 365)).toBeCloseTo(0.25, 12);
    expect(recencyFactor(daysBefore(7), asOf, 7)).toBeCloseTo(0.5, 12);
  });
  it('is 1 when the decay is off, the date unknown, or the date after asOf', () => {
    expect(recencyFactor(daysBefore(5000), asOf, null)).toBe(1);
    expect(recencyFactor(daysBefore(5000), asOf, Infinity)).toBe(1);
    expect(recencyFactor(null, asOf, 365)).toBe(1);
    expect(recencyFactor(daysBefore(-30), asOf, 365)).toBe(1);
    expect(recencyFactor(new Date(NaN), asOf, 365)).toBe(1);
  });
  it('orders an old strong result below a fresh weaker one when ages differ enough', () => {
    const oldStrong = decayed(1.0, recencyFactor(daysBefore(3 * 365), asOf, 365));
    const freshWeak = decayed(0.3, recencyFactor(daysBefore(10), asOf, 365));
    expect(freshWeak).toBeGreaterThan(oldStrong);
  });
});

describe('decayed', () => {
  it('clamps negative and non-finite relevance to 0', () => {
    expect(decayed(-1, 0.5)).toBe(0);
    expect(decayed(NaN, 0.5)).toBe(0);
    expect(decayed(2, 0.5)).toBe(1);
  });
});

describe('resolveHalfLife', () => {
  it('uses the request, else the default; null and Infinity turn it off', () => {
    expect(resolveHalfLife(undefined, 365)).toBe(365);
    expect(resolveHalfLife(undefined, Infinity)).toBeNull();
    expect(resolveHalfLife(null, 365)).toBeNull();
    expect(resolveHalfLife(Infinity, 365)).toBeNull();
    expect(resolveHalfLife(30, 365)).toBe(30);
  });
});
