/**
 * OPML as the feed readers export it (files in testdata/opml/ follow the shapes Miniflux, FreshRSS,
 * Feedly, Inoreader, NetNewsWire and Thunderbird write: OPML 1.0, 1.1 and 2.0, folders, xmlUrl /
 * htmlUrl / title / text, a Latin-1 file), written back and read again; hostile files refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPML_MAX_BYTES, parseOpml, writeOpml } from './opml';

const dir = path.join(__dirname, '..', 'testdata', 'opml');
const read = (name: string) => fs.readFileSync(path.join(dir, name));
const summary = (name: string) => parseOpml(read(name)).feeds.map((f) => [f.category, f.title, f.xmlUrl, f.htmlUrl]);

describe('OPML import', () => {
  it('Miniflux (2.0): folders, title/text, an ampersand in the feed URL', () => {
    const doc = parseOpml(read('miniflux.opml'));
    expect(doc).toMatchObject({ version: '2.0', title: 'Miniflux', skipped: [] });
    expect(summary('miniflux.opml')).toEqual([
      ['All', 'Ars Technica - All content', 'https://feeds.arstechnica.com/arstechnica/index', 'https://arstechnica.com/'],
      ['All', 'Hacker News: Front Page', 'https://hnrss.org/frontpage?points=100&comments=25', 'https://news.ycombinator.com/'],
      ['World news', 'BBC News - World', 'https://feeds.bbci.co.uk/news/world/rss.xml', 'https://www.bbc.co.uk/news/world'],
    ]);
  });

  it('FreshRSS (2.0 with its own namespace, text only, non-ASCII folder names)', () => {
    expect(summary('freshrss.opml')).toEqual([
      [
        'Sans catégorie',
        'Le Monde.fr - Actualités et Infos en France et dans le monde',
        'https://www.lemonde.fr/rss/une.xml',
        'https://www.lemonde.fr/',
      ],
      [
        'Science & santé',
        'ScienceDaily: Top Science News',
        'https://www.sciencedaily.com/rss/top/science.xml',
        'https://www.sciencedaily.com/news/top/science/',
      ],
      ['Science & santé', 'Nature', 'https://www.nature.com/nature.rss', 'https://www.nature.com/nature'],
    ]);
  });

  it('Feedly and Inoreader (1.0), feeds at the top level beside folders', () => {
    expect(summary('feedly.opml').map((r) => [r[0], r[2]])).toEqual([
      ['News', 'https://feeds.npr.org/1001/rss.xml'],
      ['News', 'https://www.aljazeera.com/xml/rss/all.xml'],
      ['Fact-checks', 'https://fullfact.org/feed/all/'],
    ]);
    expect(summary('inoreader.opml').map((r) => [r[0], r[1]])).toEqual([
      ['Europe', 'DW | Deutsche Welle'],
      ['Europe', 'FRANCE 24 - International breaking news'],
      [null, 'The Guardian'],
    ]);
  });

  it('NetNewsWire (1.1, nested folders) and Thunderbird (1.0, its own attributes, escaped names)', () => {
    expect(summary('netnewswire.opml')).toEqual([
      ['Canada / World', 'CBC | World News', 'https://www.cbc.ca/webfeed/rss/rss-world', 'https://www.cbc.ca/news/world/?cmp=rss'],
      [null, 'Daring Fireball', 'https://daringfireball.net/feeds/main', 'https://daringfireball.net/'],
    ]);
    expect(summary('thunderbird.opml')).toEqual([
      [
        'Blogs & News Feeds',
        'The New York Times > World',
        'https://rss.nytimes.com/services/xml/rss/nyt/World.xml',
        'https://www.nytimes.com/section/world',
      ],
    ]);
  });

  it('reads the charset the file declares', () => {
    expect(summary('latin1.opml')).toEqual([
      ['Actualités', 'Libération', 'https://www.liberation.fr/arc/outboundfeeds/rss/?outputType=xml', null],
    ]);
  });

  it('skips what cannot be a feed, and says why', () => {
    const doc = parseOpml(`<opml version="2.0"><body>
      <outline text="a" xmlUrl="https://a.example/rss"/><outline text="again" xmlUrl="https://a.example/rss#top"/>
      <outline text="ftp" xmlUrl="ftp://a.example/rss"/><outline text="js" xmlUrl="javascript:alert(1)"/>
      <outline text="no url" type="link" url="https://a.example/"/></body></opml>`);
    expect(doc.feeds.map((f) => f.xmlUrl)).toEqual(['https://a.example/rss']);
    expect(doc.skipped).toEqual([
      { url: 'https://a.example/rss', reason: 'listed twice' },
      { url: 'ftp://a.example/rss', reason: 'not an http(s) URL' },
      { url: 'javascript:alert(1)', reason: 'not an http(s) URL' },
    ]);
  });
  it('drops control characters from titles, folders, addresses and the skipped list (raw or as references)', () => {
    const doc = parseOpml(`<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><head><title>My\u009b feeds</title></head><body>
      <outline text="World&#x9b;31m\u007f\u0085news"><outline text="BBC&#x9B;2J" title="BBC\u009d World\u0080" xmlUrl="https://b.example/rss" htmlUrl="https://b.example/&#x9b;"/></outline>
      <outline text="x" xmlUrl="ftp://x.example/\u009b[2J"/></body></opml>`);
    expect(doc.title).toBe('My feeds');
    expect(doc.feeds).toEqual([
      { xmlUrl: 'https://b.example/rss', title: 'BBC World', htmlUrl: 'https://b.example/', category: 'World31m news' },
    ]);
    expect(doc.skipped).toEqual([{ url: 'ftp://x.example/[2J', reason: 'not an http(s) URL' }]);
  });
});

describe('hostile OPML is refused clearly', () => {
  it('entity declarations (billion laughs, external entities) are refused, never expanded', () => {
    expect(() => parseOpml(read('billion-laughs.opml'))).toThrow(/declares entities .* never expanded/);
    expect(() => parseOpml(read('xxe.opml'))).toThrow(/declares entities/);
    expect(() => parseOpml(read('undefined-entity.opml'))).toThrow(/malformed XML .*entity/i);
  });

  it('too large, not OPML, malformed, empty', () => {
    const big = Buffer.alloc(OPML_MAX_BYTES + 1, 0x20);
    expect(() => parseOpml(big)).toThrow(/more than the 2,097,152 allowed/);
    expect(() => parseOpml('<rss version="2.0"><channel/></rss>')).toThrow('not a usable OPML file: the root element is <rss>, not <opml>');
    expect(() => parseOpml('<opml version="2.0"><body><outline text="a">')).toThrow(/malformed XML/);
    expect(() => parseOpml('<html><body>Login</body></html>')).toThrow(/root element is <html>/);
    expect(() => parseOpml('  ')).toThrow(/the file is empty/);
    const deep = `<opml version="2.0"><body>${'<outline text="x">'.repeat(40)}${'</outline>'.repeat(40)}</body></opml>`;
    expect(() => parseOpml(deep)).toThrow(/nested deeper than 32/);
  });
});

describe('OPML export', () => {
  it('round-trips every real export: folders, titles, site addresses; the XML escapes what it must', () => {
    for (const name of [
      'miniflux.opml',
      'freshrss.opml',
      'feedly.opml',
      'inoreader.opml',
      'netnewswire.opml',
      'thunderbird.opml',
      'latin1.opml',
    ]) {
      const first = parseOpml(read(name));
      const written = writeOpml(first.feeds, { title: 'Quin news feeds', now: new Date('2024-06-01T00:00:00Z') });
      const again = parseOpml(written);
      expect(again.version).toBe('2.0');
      expect(again.title).toBe('Quin news feeds');
      expect(new Set(again.feeds.map((f) => JSON.stringify(f))), name).toEqual(new Set(first.feeds.map((f) => JSON.stringify(f))));
    }
  });

  it('writes nested folders and escapes quotes, ampersands and angle brackets', () => {
    const xml = writeOpml(
      [
        { xmlUrl: 'https://a.example/rss?x=1&y=2', title: 'He said "<hi>" & left', htmlUrl: null, category: 'News / World' },
        { xmlUrl: 'https://b.example/feed', title: null, htmlUrl: 'https://b.example/', category: null },
      ],
      { title: 'T', now: new Date('2024-06-01T00:00:00Z') },
    );
    expect(xml).toContain('<outline text="News" title="News">\n      <outline text="World" title="World">');
    expect(xml).toContain('text="He said &quot;&lt;hi&gt;&quot; &amp; left"');
    expect(xml).toContain('xmlUrl="https://a.example/rss?x=1&amp;y=2"');
    expect(xml).toContain('<dateCreated>Sat, 01 Jun 2024 00:00:00 GMT</dateCreated>');
    expect(parseOpml(xml).feeds[0]).toEqual({
      xmlUrl: 'https://a.example/rss?x=1&y=2',
      title: 'He said "<hi>" & left',
      htmlUrl: null,
      category: 'News / World',
    });
  });
});
