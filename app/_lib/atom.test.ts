/** The follow feed's Atom writer against RFC 4287's rules and a real feed parser. */
import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../crawler';
import { atomProblems, readWithFeedparser } from '../../testing/atom-check';
import { atomFeed, uuidUrn, xmlText } from './atom';

const feed = (entries = 2) =>
  atomFeed({
    id: uuidUrn('follow:abc'),
    title: 'Quin news: “Bridge & <tunnel> close”',
    subtitle: 'New coverage',
    updated: new Date('2024-06-01T12:00:00Z'),
    selfUrl: 'http://127.0.0.1:3000/api/follow?q=bridge&sources=A',
    alternateUrl: 'http://127.0.0.1:3000/search?q=bridge&sources=A',
    authorName: 'Quin news',
    generator: { name: 'Quin news' },
    entries: Array.from({ length: entries }, (_, i) => ({
      id: uuidUrn(`follow:abc:article:${i}`),
      title: `Story ${i} "quoted" & <b>bold</b>`,
      updated: new Date(Date.UTC(2024, 5, 1, i)),
      published: i ? new Date('2024-05-30T08:00:00Z') : null,
      link: `https://news.example/${i}?a=1&b=2`,
      authorName: 'Metro Herald',
      summary: 'Verdict when this appeared: supported (71% confidence).',
      content: 'Text with \u0001 a control character\nand a line break.',
      categories: [{ term: 'verdict:supported', label: 'Verdict at the time: supported' }],
    })),
  });

describe('Atom writer', () => {
  it('writes what RFC 4287 requires, escapes text, and a real parser reads every entry', async () => {
    const xml = feed();
    expect(atomProblems(xml)).toEqual([]);
    const { meta, items } = await readWithFeedparser(xml);
    expect(meta.type).toBe('atom');
    expect(meta.title).toBe('Quin news: “Bridge & <tunnel> close”');
    expect(meta.xmlurl).toBe('http://127.0.0.1:3000/api/follow?q=bridge&sources=A');
    // feedparser strips anything tag-like from entry titles even in type="text" (a reader's choice): the
    // escaped text arrives, as text, and no markup is interpreted.
    expect(items.map((i) => [i.title, i.link, i.guid, i.author])).toEqual([
      ['Story 0 "quoted" & bold', 'https://news.example/0?a=1&b=2', uuidUrn('follow:abc:article:0'), 'Metro Herald'],
      ['Story 1 "quoted" & bold', 'https://news.example/1?a=1&b=2', uuidUrn('follow:abc:article:1'), 'Metro Herald'],
    ]);
    expect(items[0]!.categories).toEqual(['verdict:supported']);
    expect(xml).not.toContain('\u0001');
  });

  it("the crawler's own feed parser (rss-parser underneath) reads it too", async () => {
    const parsed = await parseFeed(Buffer.from(feed()), { url: 'http://127.0.0.1:3000/api/follow?q=bridge' });
    expect(parsed.format).toBe('atom');
    expect(parsed.items.map((i) => [i.guid, i.link, i.published?.toISOString()])).toEqual([
      [uuidUrn('follow:abc:article:0'), 'https://news.example/0?a=1&b=2', '2024-06-01T00:00:00.000Z'],
      [uuidUrn('follow:abc:article:1'), 'https://news.example/1?a=1&b=2', '2024-05-30T08:00:00.000Z'],
    ]);
  });

  it('an empty feed is still valid; ids are stable name-based UUID URNs', () => {
    expect(atomProblems(feed(0))).toEqual([]);
    expect(uuidUrn('x')).toBe(uuidUrn('x'));
    expect(uuidUrn('x')).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(xmlText('a & b < c > "d"')).toBe('a &amp; b &lt; c &gt; &quot;d&quot;');
  });

  it('the checker itself catches what a broken feed lacks', () => {
    expect(atomProblems('<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><title>e</title></entry></feed>')).toEqual([
      'feed: 0 <id> (exactly one required)',
      'feed: 0 <updated> (exactly one required)',
      'feed: no rel="self" link (SHOULD)',
      'entry 1: 0 <id> (exactly one required)',
      'entry 1: 0 <updated> (exactly one required)',
      'entry 1: no author and the feed has none',
      'entry 1: neither content nor an alternate link',
    ]);
    expect(() => atomProblems('<feed xmlns="http://www.w3.org/2005/Atom"><title>a & b</title></feed>')).toThrow();
  });
});
