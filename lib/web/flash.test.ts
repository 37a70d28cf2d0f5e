import { describe, expect, it } from 'vitest';
import { readFlash, signFlash } from './flash';

describe('signed flash notices', () => {
  it('round-trips and refuses forged or old ones', () => {
    const t = signFlash('s', { kind: 'error', text: 'Could not add the feed: not a feed' }, 1000);
    expect(readFlash('s', t, 2000)).toEqual({ kind: 'error', text: 'Could not add the feed: not a feed' });
    expect(readFlash('other', t, 2000)).toBeNull();
    expect(readFlash('s', t, 1000 + 601_000)).toBeNull();
    const body = Buffer.from(JSON.stringify({ k: 'ok', t: 'Call +1 555 for support', at: 1000 })).toString('base64url');
    expect(readFlash('s', `${body}.${t.split('.')[1]}`, 2000)).toBeNull();
    expect(readFlash('s', undefined)).toBeNull();
  });
});
