import { describe, expect, it } from 'vitest';
import { parseMaxAge, parseRetryAfter } from '../http/retry-after';
import { nextCheck } from './next-check';

const now = new Date('2024-01-01T00:00:00Z');
const base = { now, intervalMinutes: 30, backoffMaxMinutes: 24 * 60, brokenAfterFailures: 5 };
const minutes = (d: Date) => (d.getTime() - now.getTime()) / 60_000;

describe('nextCheck', () => {
  it('waits the interval after a success, longer when the feed asks (ttl, max-age), the hint capped', () => {
    expect(minutes(nextCheck({ ...base, failures: 0 }).nextCheckAt)).toBe(30);
    expect(minutes(nextCheck({ ...base, failures: 0, hintMinutes: 10 }).nextCheckAt)).toBe(30);
    expect(minutes(nextCheck({ ...base, failures: 0, hintMinutes: 120 }).nextCheckAt)).toBe(120);
    expect(minutes(nextCheck({ ...base, failures: 0, hintMinutes: 1e6 }).nextCheckAt)).toBe(24 * 60);
  });

  it('backs off exponentially on failure, capped, honouring Retry-After', () => {
    expect([1, 2, 3, 4, 10, 60].map((failures) => nextCheck({ ...base, failures }).waitMinutes)).toEqual([30, 60, 120, 240, 1440, 1440]);
    expect(nextCheck({ ...base, failures: 1, retryAfterMs: 3 * 3600_000 }).waitMinutes).toBe(180);
    expect(nextCheck({ ...base, failures: 1, retryAfterMs: 30 * 24 * 3600_000 }).waitMinutes).toBe(1440);
  });

  it('calls a feed broken after enough failures, and still schedules it', () => {
    const d = nextCheck({ ...base, failures: 5 });
    expect(d.status).toBe('broken');
    expect(d.nextCheckAt.getTime()).toBeGreaterThan(now.getTime());
    expect(nextCheck({ ...base, failures: 4 }).status).toBe('active');
    expect(nextCheck({ ...base, failures: 0 }).status).toBe('active');
  });
});

describe('HTTP hints', () => {
  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter('Mon, 01 Jan 2024 00:10:00 GMT', now.getTime())).toBe(600_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
  it('reads Cache-Control max-age (s-maxage first)', () => {
    expect(parseMaxAge('public, max-age=600')).toBe(600);
    expect(parseMaxAge('max-age=600, s-maxage=1200')).toBe(1200);
    expect(parseMaxAge('no-cache')).toBeNull();
  });
});
