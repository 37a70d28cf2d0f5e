import { describe, expect, it } from 'vitest';
import { formatAbsolute, formatBytes, formatDuration, formatRelative } from './time-format';

describe('date and size formatting', () => {
  const now = new Date('2024-03-15T12:00:00Z');
  it('says how long ago, in the largest fitting unit', () => {
    expect(formatRelative(new Date('2024-03-15T11:59:40Z'), now)).toBe('just now');
    expect(formatRelative(new Date('2024-03-15T09:00:00Z'), now)).toBe('3 hours ago');
    expect(formatRelative(new Date('2024-03-14T12:00:00Z'), now)).toBe('yesterday');
    expect(formatRelative(new Date('2024-02-01T12:00:00Z'), now)).toBe('last month');
    expect(formatRelative(new Date('1987-03-15T12:00:00Z'), now)).toBe('37 years ago');
    expect(formatRelative(new Date('2024-03-16T12:00:00Z'), now)).toBe('tomorrow');
  });
  it('gives the absolute date in UTC', () => {
    expect(formatAbsolute(new Date('2024-03-05T14:05:00Z'))).toBe('5 Mar 2024, 14:05 UTC');
  });
  it('formats durations and sizes', () => {
    expect([5, 90, 7200, 3 * 86400].map(formatDuration)).toEqual(['5 s', '2 min', '2 h', '3 d']);
    expect([512, 2048, 5.5 * 1024 * 1024].map(formatBytes)).toEqual(['512 B', '2.0 KB', '5.5 MB']);
  });
});
