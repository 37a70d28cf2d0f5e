/**
 * Feed parsing over all 31 real feed files in ../shared/data/feeds/rss-parser (golden summaries in
 * testdata/feeds.golden.json; regenerate only on purpose with UPDATE_GOLDEN=1) and over this
 * project's own fixtures for the cases the real files lack.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isQuinError } from '../lib/errors';
import { sharedData, SHARED_MISSING } from '../testing/shared-data';
import { parseFeed, rootElement, type FeedItem, type ParsedFeed } from './feed-parser';

const realDir = sharedData('feeds', 'rss-parser');
const goldenFile = path.join(__dirname, 'testdata', 'feeds.golden.json');
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, 'testdata', name));
// Fixed "now" so that plausibility checks do not drift with the calendar.
const NOW = new Date('2025-01-01T00:00:00Z');

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

  it('reports malformed XML with its position', async () => {
    await expect(parse('malformed.xml')).rejects.toMatchObject({
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

  it('finds the root element behind declarations, comments and doctypes', () => {
    expect(rootElement('<?xml version="1.0"?>\n<!-- c --><!DOCTYPE rss PUBLIC "x" "y"><rss>')).toBe('rss');
    expect(rootElement('<?xml version="1.0"?><rdf:RDF xmlns:rdf="x">')).toBe('rdf:RDF');
    expect(rootElement('plain text')).toBeNull();
  });
});
