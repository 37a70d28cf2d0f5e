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

describe('flash notices of a failed add', () => {
  it('carry the typed URL and the feeds the page links to, signed like the text', () => {
    const t = signFlash(
      's',
      {
        kind: 'error',
        text: 'not a feed',
        url: 'https://news.example/',
        found: ['https://news.example/rss.xml', 'https://news.example/atom.xml'],
      },
      1000,
    );
    expect(readFlash('s', t, 2000)).toEqual({
      kind: 'error',
      text: 'not a feed',
      url: 'https://news.example/',
      found: ['https://news.example/rss.xml', 'https://news.example/atom.xml'],
    });
    // A forged list of "found" feeds is refused with the rest.
    const body = Buffer.from(JSON.stringify({ k: 'error', t: 'not a feed', at: 1000, f: ['https://evil.example/'] })).toString('base64url');
    expect(readFlash('s', `${body}.${t.split('.')[1]}`, 2000)).toBeNull();
  });
});

describe('flash notices that link to a place on the dashboard', () => {
  it('carry a link within the dashboard only', () => {
    const link = { href: '/admin#feed-13', text: 'Show it' };
    const t = signFlash('s', { kind: 'error', text: 'already crawled', link }, 1000);
    expect(readFlash('s', t, 2000)).toEqual({ kind: 'error', text: 'already crawled', link });
    for (const href of ['https://evil.example/', '//evil.example/admin', 'javascript:alert(1)', '/admin x'])
      expect(readFlash('s', signFlash('s', { kind: 'ok', text: 'x', link: { href, text: 'go' } }, 1000), 2000)).toEqual({
        kind: 'ok',
        text: 'x',
      });
  });
});
