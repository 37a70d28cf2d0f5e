/** Issue 11.2 on a followed search: "as of" bounds the publication date there too, as the `to` date. */
import { describe, expect, it } from 'vitest';
import { asOfAsTo, followHref, followKey } from './follow';

describe('follow: "as of" as the upper bound', () => {
  it('becomes the `to` date when it is the earlier bound, and is dropped', () => {
    expect(asOfAsTo({ q: 'x', asOf: '2024-06-01' })).toEqual({ q: 'x', to: '2024-06-01' });
    expect(asOfAsTo({ q: 'x', asOf: '2024-06-01', to: '2024-09-01' })).toEqual({ q: 'x', to: '2024-06-01' });
    expect(asOfAsTo({ q: 'x', asOf: '2024-06-01', to: '2024-03-01' })).toEqual({ q: 'x', to: '2024-03-01' });
    // The same day: the bound is the same (a bare `to` means the end of its day).
    expect(asOfAsTo({ q: 'x', asOf: '2024-06-01', to: '2024-06-01' })).toEqual({ q: 'x', to: '2024-06-01' });
    // An instant on the as-of day is earlier than the end of that `to` day.
    expect(asOfAsTo({ q: 'x', asOf: '2024-06-01T12:00:00Z', to: '2024-06-01' })).toEqual({ q: 'x', to: '2024-06-01T12:00:00Z' });
    expect(asOfAsTo({ q: 'x', to: '2024-06-01' })).toEqual({ q: 'x', to: '2024-06-01' });
  });

  it('keeps the bound in the follow link and in the follow identity', () => {
    expect(followHref({ q: 'harbour bridge', asOf: '2024-06-01' })).toBe('/api/follow?q=harbour+bridge&to=2024-06-01');
    const key = (q: Parameters<typeof followKey>[0]) => followKey(q).id;
    const base = { q: 'harbour bridge', halfLifeDays: undefined, from: undefined, maxAgeDays: undefined, sources: undefined };
    expect(key({ ...base, asOf: '2024-06-01', to: undefined })).toBe(key({ ...base, asOf: undefined, to: '2024-06-01' }));
    expect(key({ ...base, asOf: '2024-06-01', to: undefined })).not.toBe(key({ ...base, asOf: undefined, to: undefined }));
  });
});
