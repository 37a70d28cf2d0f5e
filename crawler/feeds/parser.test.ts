/**
 * Feed parsing over all 31 real feed files in ../shared/data/feeds/rss-parser (golden summaries in
 * testdata/feeds.golden.json; regenerate only on purpose with UPDATE_GOLDEN=1) and over this
 * project's own fixtures for the cases the real files lack.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isQuinError } from '../../lib/errors';
import { sharedData, SHARED_MISSING } from '../../testing/shared-data';
import { parseFeed, rootElement, type FeedItem, type ParsedFeed } from './parser';

const realDir = sharedData('feeds', 'rss-parser');
const goldenFile = path.join(__dirname, '..', 'testdata', 'feeds.golden.json');
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'testdata', name));
// Fixed "now" so that plausibility checks do not drift with the calendar.
const NOW = new Date('2025-01-01T00:00:00Z');

/** A feed whose DTD declares an entity and whose text repeats it 5,000 times (a quadratic blow-up). */
function quadraticEntityFeed(): Buffer {
  return Buffer.from(
    `<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY a "${'x'.repeat(5000)}">]>\n<rss version="2.0"><channel><title>Q</title><item><title>Blow-up</title><link>https://news.test/q</link><description>${'&a;'.repeat(5000)}</description></item></channel></rss>`,
  );
}

/** The same attack with its doctype misplaced inside the channel, where only a forgiving parser goes. */
function misplacedDoctypeFeed(): Buffer {
  return Buffer.from(
    `<rss version="2.0"><channel><title>M</title><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><item><title>Refs</title><link>https://news.test/m</link><description>${'&a;'.repeat(2000)}</description></item></channel></rss>`,
  );
}

function summarizeItem(i: FeedItem | undefined) {
  return i && { key: i.key, link: i.link, title: i.title, published: i.published?.toISOString() ?? null, publishedRaw: i.publishedRaw };
}

async function summarize(file: string) {
  try {
    const feed = await parseFeed(fs.readFileSync(file), { url: `http://feeds.test/${path.basename(file)}`, now: NOW });
    const dates = feed.items
      .map((i) => i.published?.toISOString())
      .filter((d): d is string => !!d)
      .sort();
    return {
      ok: true,
      format: feed.format,
      charset: feed.charset,
      title: feed.title,
      items: feed.items.length,
      dated: dates.length,
      dateProblems: feed.items.filter((i) => i.dateProblem).length,
      earliest: dates[0] ?? null,
      latest: dates[dates.length - 1] ?? null,
      first: summarizeItem(feed.items[0]),
      last: summarizeItem(feed.items[feed.items.length - 1]),
    };
  } catch (e) {
    if (!isQuinError(e)) throw e;
    return { ok: false, code: e.code, message: e.message };
  }
}

describe.skipIf(!realDir)(`the real feed files (${realDir ? '' : SHARED_MISSING})`, () => {
  const files = realDir ? fs.readdirSync(realDir).sort() : [];

  it('are all 31 there', () => expect(files).toHaveLength(31));

  it('each parses, or fails with a clear error, as recorded in the golden file', async () => {
    const actual: Record<string, unknown> = {};
    for (const f of files) actual[f] = await summarize(path.join(realDir!, f));
    if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(goldenFile, JSON.stringify(actual, null, 2) + '\n');
    expect(actual).toEqual(JSON.parse(fs.readFileSync(goldenFile, 'utf8')));
  });

  const parse = (f: string) => parseFeed(fs.readFileSync(path.join(realDir!, f)), { url: `http://feeds.test/${f}`, now: NOW });

  it('reads every date the real files carry (no raw date left unread)', async () => {
    for (const f of files.filter((f) => f !== 'unrecognized.rss')) {
      const feed = await parse(f);
      for (const item of feed.items) if (item.publishedRaw) expect(item.published, `${f}: ${item.publishedRaw}`).not.toBeNull();
    }
  });

  it('reads Portuguese day and month names and an undeclared ISO-8859-1 body (uolNoticias)', async () => {
    const feed = await parse('uolNoticias.rss');
    expect(feed.charset).toBe('windows-1252');
    expect(feed.items).toHaveLength(15);
    expect(feed.items[0]!.publishedRaw).toBe('Seg, 24 Set 2018 19:42:40 -0300');
    expect(feed.items[0]!.published).toEqual(new Date('2018-09-24T22:42:40Z'));
    expect(feed.items[0]!.title).toBe('Ibope: Bolsonaro perde de Haddad, Ciro e Alckmin em simulações de 2º turno');
  });

  it('decodes a declared ISO-8859-1 feed (encoding.rss)', async () => {
    const feed = await parse('encoding.rss');
    expect(feed.title).toBe('Jornal de Notícias - Últimas Notícias');
    expect(feed.items[0]!.published).toEqual(new Date('2018-01-03T13:47:00Z'));
  });

  it('reads US zone names, two-digit-free RFC 822 without a weekday, and numeric offsets', async () => {
    expect((await parse('giantbomb-podcast.rss')).items[0]!.published).toEqual(new Date('2019-10-01T22:30:00Z')); // PST
    expect((await parse('itunes-category.rss')).items[0]!.published).toEqual(new Date('2015-11-07T17:00:00Z')); // EST, no weekday
    expect((await parse('customfields.rss')).items[0]!.published).toEqual(new Date('2017-05-19T15:35:02Z')); // +0530
    expect((await parse('itunes-href.rss')).items[0]!.published).toEqual(new Date('2019-01-07T16:19:19Z')); // leading newline
  });

  it('reads RDF (RSS 1.0) with dc:date and Atom with published/updated', async () => {
    const rdf = await parse('rss-1.rss');
    expect(rdf.format).toBe('rdf');
    expect(rdf.items[0]!.published).toEqual(new Date('2017-06-15T17:29:47Z'));
    const atom = await parse('feedburner.atom');
    expect(atom.format).toBe('atom');
    expect(atom.items[0]!.published).toEqual(new Date('2016-06-03T14:38:00Z'));
    const gulp = await parse('gulp-atom.atom');
    expect(gulp.items[0]!.link).toBe('https://github.com/gulpjs/gulp/releases/tag/v3.9.0'); // relative link resolved
    expect(gulp.items[0]!.published).toEqual(new Date('2015-06-01T21:49:41Z')); // from <updated>
  });

  it('reads RSS 0.92 items that have no dates', async () => {
    const feed = await parse('heraldsun.rss');
    expect(feed.format).toBe('rss');
    expect(feed.items.map((i) => [i.link, i.published])).toEqual([
      ['http://www.oreilly.com/example/001.html', null],
      ['http://www.oreilly.com/example/002.html', null],
    ]);
  });

  it('says that an HTML page is not a feed (unrecognized.rss)', async () => {
    await expect(parse('unrecognized.rss')).rejects.toMatchObject({
      code: 'FEED_PARSE_ERROR',
      message: expect.stringMatching(/HTML page/),
    });
  });
});

describe('feed parsing of hostile and unusual documents', () => {
  const parse = (name: string, headerCharset?: string) =>
    parseFeed(fixture(name), { url: 'https://news.test/feed.xml', headerCharset, now: NOW });

  it('reads a malformed document leniently and says what was wrong, with its position', async () => {
    const feed = await parse('malformed.xml');
    expect(feed.title).toBe('Broken feed');
    expect(feed.items.map((i) => [i.title, i.link])).toEqual([['An item whose element is never closed', 'https://news.test/broken/1']]);
    expect(feed.warnings).toEqual([
      expect.stringMatching(/^not well-formed XML \(Unexpected close tag \(line 8, column \d+\)\), read leniently/),
    ]);
  });

  it('reports malformed XML with its position when a lenient read recovers nothing', async () => {
    const broken = Buffer.from('<?xml version="1.0"?>\n<rss version="2.0"><channel><item><title></titl></item></channel>');
    await expect(parseFeed(broken, { url: 'https://x.test/' })).rejects.toMatchObject({
      code: 'FEED_PARSE_ERROR',
      message: expect.stringMatching(/malformed XML: .*line \d+/),
    });
  });

  it('repairs bare ampersands, the most common well-formedness error', async () => {
    const feed = await parse('bare-ampersand.rss');
    expect(feed.title).toBe('Markets & Money');
    expect(feed.items[0]).toMatchObject({
      title: 'Stocks & bonds rally',
      link: 'https://news.test/markets?id=1&ref=rss',
      text: 'Prices rose & fell.',
    });
  });

  it('names the feeds an HTML page links to', async () => {
    const err = await parse('html-page.html').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'FEED_PARSE_ERROR', message: expect.stringContaining('https://news.test/rss/top.xml') });
  });

  it('rejects empty documents and other XML', async () => {
    await expect(parseFeed(Buffer.from('   '), { url: 'https://x.test/' })).rejects.toMatchObject({
      message: expect.stringMatching(/empty/),
    });
    await expect(parseFeed(Buffer.from('<?xml version="1.0"?><svg/>'), { url: 'https://x.test/' })).rejects.toMatchObject({
      message: expect.stringMatching(/root element is <svg>/),
    });
  });

  it('decodes windows-1251 declared in the XML declaration, even under a wrong HTTP charset', async () => {
    for (const header of [undefined, 'utf-8']) {
      const feed = await parse('encoding-windows-1251.xml', header);
      expect(feed.title).toBe('Новости дня');
      expect(feed.items[0]).toMatchObject({ title: 'Погода в Москве', text: 'Завтра ожидается снег.' });
      expect(feed.items[0]!.published).toEqual(new Date('2024-02-05T06:00:00Z'));
    }
  });

  it('decodes UTF-16 with a byte-order mark', async () => {
    const feed = await parse('encoding-utf16-bom.xml');
    expect(feed).toMatchObject({ format: 'atom', title: 'Ünïcödé Atom', charset: 'utf-16le' });
    expect(feed.items[0]).toMatchObject({ title: 'Grüße aus Köln', published: new Date('2024-02-05T10:00:00Z') });
  });

  it('prefers valid UTF-8 over a wrong single-byte HTTP charset', async () => {
    const body = Buffer.from('<rss version="2.0"><channel><title>Zürich café</title></channel></rss>', 'utf8');
    expect((await parseFeed(body, { url: 'https://x.test/', headerCharset: 'iso-8859-1' })).title).toBe('Zürich café');
  });

  it('keeps items without links or dates, rejects implausible dates, and honours ttl', async () => {
    const feed: ParsedFeed = await parse('odd-items.rss');
    expect(feed.ttlMinutes).toBe(120);
    const byTitle = Object.fromEntries(feed.items.map((i) => [i.title, i]));
    expect(byTitle['No link and no date, but a text of its own']).toMatchObject({
      key: 'odd-1',
      link: null,
      published: null,
      textSource: 'item_description',
      text: 'The council met on Monday to discuss the new budget. Members approved the plan after a long debate.\nThe vote was seven to two.',
    });
    expect(byTitle['Dated in the future']).toMatchObject({ published: null, dateProblem: 'implausible' });
    expect(byTitle['Dated at the epoch']).toMatchObject({ published: null, dateProblem: 'implausible' });
    expect(byTitle['A date nobody can read']).toMatchObject({
      published: null,
      dateProblem: 'unreadable',
      publishedRaw: 'sometime last week',
    });
    expect(byTitle['']).toMatchObject({ link: 'https://news.test/odd/relative/link.html', published: new Date('2024-02-05T00:00:00Z') });
    // The empty <item/> has nothing to identify it and is dropped.
    expect(feed.items).toHaveLength(5);
  });

  it('never remembers the previous document: bad, good and hostile documents in alternation give the same answers', async () => {
    const docs: [string, Buffer][] = [
      ['malformed', fixture('malformed.xml')],
      ['unrecoverable', Buffer.from('<rss version="2.0"><channel><item><title></titl></item></channel>')],
      ['good', fixture('bare-ampersand.rss')],
      ['quadratic', quadraticEntityFeed()],
      ['html', fixture('html-page.html')],
      ['truncated', fixture('forgiving/truncated.rss')],
    ];
    const once = async ([name, body]: [string, Buffer]) => {
      try {
        const f = await parseFeed(body, { url: 'https://news.test/feed.xml', now: NOW });
        return `${name}: ok ${f.items.length} items, ${f.warnings.length} warnings, first "${f.items[0]?.title ?? ''}"`;
      } catch (e) {
        return `${name}: ${isQuinError(e) ? e.code : 'THROWN'} ${(e as Error).message}`;
      }
    };
    const first = await Promise.all(docs.map(once));
    expect(first.map((r) => r.split(':')[0] + ':' + r.split(' ')[1])).toEqual([
      'malformed:ok',
      'unrecoverable:FEED_PARSE_ERROR',
      'good:ok',
      'quadratic:FEED_PARSE_ERROR',
      'html:FEED_PARSE_ERROR',
      'truncated:ok',
    ]);
    for (let round = 0; round < 40; round++) {
      const order = round % 2 ? [...docs].reverse() : docs;
      const results = new Map<string, string>();
      for (const d of order) results.set(d[0], await once(d));
      expect(
        docs.map(([name]) => results.get(name)),
        `round ${round}`,
      ).toEqual(first);
    }
  });

  it('refuses entity declarations (quadratic blow-up, XXE, a doctype hidden after the root) and never keeps "&a;" as text', async () => {
    for (const body of [quadraticEntityFeed(), fixture('forgiving/xxe.rss'), misplacedDoctypeFeed()]) {
      const err = await parseFeed(body, { url: 'https://news.test/', now: NOW }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'FEED_PARSE_ERROR', message: expect.stringMatching(/declares XML entities/) });
    }
    // An entity declaration shown as text (escaped, or in CDATA) is no declaration.
    const shown = Buffer.from(
      '<rss version="2.0"><channel><title>XML tips</title><item><title>Entities</title><link>https://news.test/tip</link><description>&lt;!ENTITY a "x"&gt; and <![CDATA[<!ENTITY b "y">]]></description></item></channel></rss>',
    );
    expect((await parseFeed(shown, { url: 'https://news.test/', now: NOW })).items.map((i) => i.title)).toEqual(['Entities']);
  });

  it('finds the root element behind declarations, comments and doctypes', () => {
    expect(rootElement('<?xml version="1.0"?>\n<!-- c --><!DOCTYPE rss PUBLIC "x" "y"><rss>')).toBe('rss');
    expect(rootElement('<?xml version="1.0"?><rdf:RDF xmlns:rdf="x">')).toBe('rdf:RDF');
    expect(rootElement('plain text')).toBeNull();
  });
});

describe('real-feed details: xhtml text, permalink guids, iTunes and Media RSS text, impossible zone offsets', () => {
  const parse = (name: string) => parseFeed(fixture(name), { url: 'https://news.test/feed.xml', now: NOW });

  it('reads Atom titles and summaries of type="xhtml" (markup in a div, namespace prefixes included)', async () => {
    const feed = await parse('atom-xhtml.atom');
    expect(feed.title).toBe('The XHTML Gazette');
    expect(feed.items.map((i) => i.title)).toEqual(['Less: bold & more', 'Plain words in a div']);
    expect(feed.items[0]).toMatchObject({ textSource: 'item_description', text: 'First paragraph of the summary.\nSecond <one>.' });
  });

  it('uses an RSS guid that is a permalink as the link (isPermaLink absent or true), and only then', async () => {
    const feed = await parse('rss-guid-permalink.rss');
    expect(feed.items.map((i) => [i.title, i.link])).toEqual([
      ['Permalink guid, attribute absent', 'https://news.test/guid/1'],
      ['Permalink guid, isPermaLink true', 'https://news.test/guid/2'],
      ['Not a permalink', null],
      ['A guid that is no URL', null],
      ['A link beats the guid', 'https://news.test/link/5'],
    ]);
  });

  it('takes itunes:summary as the item text when it is the longest', async () => {
    const [item] = (await parse('podcast-itunes.rss')).items;
    expect(item).toMatchObject({
      textSource: 'item_description',
      text: expect.stringMatching(/^The council voted on the budget on Monday/),
    });
  });

  it('takes a Media RSS media:description (inside media:group, as YouTube writes it) as the item text', async () => {
    const [item] = (await parse('youtube-media.atom')).items;
    expect(item).toMatchObject({
      title: 'Flood defences explained',
      link: 'https://www.youtube.com/watch?v=abc123',
      text: 'The river rose two metres overnight. Engineers explain how the new barrier held back the water and what the town plans next.',
      published: new Date('2024-02-05T08:00:00Z'),
    });
  });

  it('refuses a +9999 zone offset instead of shifting the date by 100 hours', async () => {
    const body = Buffer.from(
      '<rss version="2.0"><channel><title>z</title><item><title>Odd zone</title><link>https://news.test/z</link><pubDate>Mon, 05 Feb 2024 09:00:00 +9999</pubDate></item></channel></rss>',
    );
    const [item] = (await parseFeed(body, { url: 'https://news.test/', now: NOW })).items;
    expect(item).toMatchObject({ published: null, dateProblem: 'unreadable', publishedRaw: 'Mon, 05 Feb 2024 09:00:00 +9999' });
  });
});

describe('JSON Feed 1.0 and 1.1', () => {
  it('reads a JSON Feed 1.1 like RSS and Atom: links, ids, HTML or text content, dates, authors', async () => {
    const feed = await parseFeed(fixture('jsonfeed-1.1.json'), { url: 'https://news.test/feed.json', now: NOW });
    expect(feed).toMatchObject({ format: 'json', title: 'JSON Gazette', siteUrl: 'https://news.test/', language: 'en-GB' });
    expect(feed.items).toHaveLength(2);
    expect(feed.items[0]).toMatchObject({
      key: 'https://news.test/json/1',
      link: 'https://news.test/json/1',
      title: 'Rail line approved',
      author: 'Ada Reporter',
      published: new Date('2024-02-05T08:00:00Z'),
      textSource: 'item_content',
      text: 'The council approved the rail line on Monday.\nWork starts in spring.',
    });
    expect(feed.items[1]).toMatchObject({
      key: '2',
      link: 'https://news.test/json/2',
      published: new Date('2024-02-06T10:00:00Z'),
      text: 'A text-only item: prices rose 3% & wages 2%.\nA second line.',
    });
    expect(feed.warnings).toEqual(['1 JSON Feed items without an id were skipped']);
  });

  it('reads JSON Feed 1.0 (one author object, external_url)', async () => {
    const feed = await parseFeed(fixture('jsonfeed-1.0.json'), { url: 'https://old.news.test/feed.json', now: NOW });
    expect(feed.items[0]).toMatchObject({
      link: 'https://elsewhere.test/story',
      author: 'Single Author',
      published: new Date('2019-05-01T16:00:00Z'),
    });
  });

  it('says clearly what is wrong with JSON that is not a JSON Feed', async () => {
    const parseJson = (s: string) => parseFeed(Buffer.from(s), { url: 'https://x.test/' });
    await expect(parseJson('{"version": "https://jsonfeed.org/version/1.1", "items": ')).rejects.toMatchObject({
      code: 'FEED_PARSE_ERROR',
      message: expect.stringMatching(/malformed JSON/),
    });
    await expect(parseJson('{"name": "package.json"}')).rejects.toMatchObject({
      message: expect.stringMatching(/not a JSON Feed: version/),
    });
    await expect(parseJson('{"version": "https://jsonfeed.org/version/1.1", "title": "x"}')).rejects.toMatchObject({
      message: expect.stringMatching(/not a JSON Feed: items/),
    });
  });
});

describe('forgiving XML: read leniently as feed readers do, with a warning', () => {
  const parse = (name: string) => parseFeed(fixture(`forgiving/${name}`), { url: 'https://news.test/feed.xml', now: NOW });

  it('reads single-quoted, spaced, unquoted and valueless attributes', async () => {
    const feed = await parse('quotes-and-attributes.rss');
    expect(feed.items.map((i) => [i.key, i.link, i.published?.toISOString() ?? null])).toEqual([
      ['q-1', 'https://news.test/q/1', '2024-02-05T09:00:00.000Z'],
      ['https://news.test/q/2', 'https://news.test/q/2', null],
    ]);
    expect(feed.warnings[0]).toMatch(/read leniently/);
  });

  it('reads unescaped ampersands and HTML entities nobody declared; an unknown one stays as written', async () => {
    const feed = await parse('ampersands-and-entities.rss');
    expect(feed.title).toBe('Café & Co — news');
    expect(feed.siteUrl).toBe('https://news.test/?a=1&b=2');
    expect(feed.items[0]).toMatchObject({
      title: 'AT&T and the ‘deal’ today',
      link: 'https://news.test/e/1?x=1&y=2',
      text: 'Prices rose & fell; the &bogus; entity stays as written.',
    });
  });

  it('keeps unescaped HTML inside a description as its text, and reads on after a mismatched close tag', async () => {
    const feed = await parse('unescaped-html.rss');
    expect(feed.items.map((i) => [i.title, i.text])).toEqual([
      ['Line breaks in the description', 'First line\nsecond line\na paragraph never closed'],
      ['After the broken one', ''],
    ]);
  });

  it('reads a truncated document up to its last whole item, dropping the item the cut went through', async () => {
    const feed = await parse('truncated.rss');
    expect(feed.items.map((i) => i.title)).toEqual(['Complete item', 'Second complete item']);
    expect(feed.warnings[0]).toMatch(/Unclosed root tag.*read leniently/);
  });

  it('keeps a strict read (and no warning) for well-formed documents', async () => {
    expect((await parseFeed(fixture('atom-xhtml.atom'), { url: 'https://news.test/' })).warnings).toEqual([]);
  });
});
