/**
 * Feed text decoded right and stored clean, from a real feed server, one crawl: a UTF-8 feed (HTTP
 * header and XML declaration) with one stray 0xFF byte keeps every item's accents and carries a
 * warning that names the count; control characters (DEL, C1, U+009B the terminal escape introducer)
 * and noncharacters never reach the database, from feed titles, item titles, texts, authors, article
 * pages, OPML files or an admin's title; `quin feeds list` shows every parse warning in its problem
 * column ("more than 500 new items" included) instead of a plain "ok". Runs on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { createTestDb, type TestDb } from '../../testing/db';
import { serveBody } from '../../testing/http-server';
import { articleHtml, paragraphsFor, sendHtml, startNewsSite, type NewsSite } from '../../testing/news-site';
import { runQuin } from '../../testing/quin-cli';
import { importFeedList } from '../feeds/feed-list';
import { addFeed, setFeedTitle } from '../feeds/manage';
import { parseOpml } from '../feeds/opml';
import { MAX_NEW_ITEMS_PER_CHECK } from './check-feed';
import { runCrawlOnce, type CrawlRunSummary } from './run';

const provider = process.env.QUIN_TEST_DB ?? 'sqlite';
const ACCENTS = 'Café naïve résumé Zürich';
const ITEMS = 6;
const STRAY_IN = 3;
/** What must never be stored: DEL, C1 (NEL becomes a space), noncharacters. */
const FORBIDDEN = /[\u007f-\u009f\ufdd0-\ufdef\ufffe\uffff]/u;

let t: TestDb;
let site: NewsSite;
let summary: CrawlRunSummary;
const ids: Record<string, number> = {};

/** RSS in UTF-8, declared twice, one 0xFF byte inside the description of item STRAY_IN. */
function strayByteFeed(): Buffer {
  const parts = [Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Stray byte</title>')];
  for (let i = 0; i < ITEMS; i++) {
    parts.push(Buffer.from(`<item><guid>stray-${i}</guid><title>${ACCENTS} ${i}</title><description>${ACCENTS}. `, 'utf8'));
    if (i === STRAY_IN) parts.push(Buffer.from([0xff]));
    parts.push(Buffer.from(`${paragraphsFor(`/stray/${i}`).join(' ')}</description></item>`, 'utf8'));
  }
  parts.push(Buffer.from('</channel></rss>'));
  return Buffer.concat(parts);
}

/** RSS whose fields carry C1 controls as character references and raw, and DEL. */
function controlsRss(origin: string): Buffer {
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<title>Controls&#x9b;2J feed\u007f</title><link>${origin}/</link>
<item><guid>ctl-rss-1</guid><title>Red&#x9B;31m alert\u0085now\u009d</title><dc:creator>Ann&#x80; Author</dc:creator>
<link>${origin}/ctl/page</link><description>${paragraphsFor('/ctl/rss').join(' ')}&#x9b;0m</description></item>
</channel></rss>`,
    'utf8',
  );
}

/** JSON Feed, where a string may hold anything: noncharacters and C1 in every field. */
function controlsJson(): Buffer {
  const text = paragraphsFor('/ctl/json').join('\u009b ');
  const feed = {
    version: 'https://jsonfeed.org/version/1.1',
    title: 'Json\ufffe controls\u0090',
    items: [
      {
        id: 'ctl-json-1\u009b',
        title: 'Noncharacters\uffff and\ufdd0 C1\u0099',
        authors: [{ name: 'Bob\u009c Writer' }],
        content_html: `<p>${text}\uffff</p>`,
        date_published: '2024-02-05T10:00:00Z',
      },
    ],
  };
  return Buffer.from(JSON.stringify(feed), 'utf8');
}

/** Newer than the older ones: the check takes in the newest MAX_NEW_ITEMS_PER_CHECK and warns. */
function manyItemsFeed(): Buffer {
  const items = Array.from({ length: MAX_NEW_ITEMS_PER_CHECK + 1 }, (_, i) => ({
    id: `many-${i}`,
    title: `Item ${i}`,
    content_text: `Item ${i} says something long enough to be stored as its own article text.`,
    date_published: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
  }));
  return Buffer.from(JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'Many', items }));
}

beforeAll(async () => {
  t = await createTestDb({ ...TEST_CRAWLER_OVERRIDES, tuning: { maxArticlesPerFeedRun: ITEMS } });
  site = await startNewsSite();
  const stray = strayByteFeed();
  site.route(
    '/stray.rss',
    serveBody(() => stray, { type: 'application/rss+xml; charset=utf-8' }),
  );
  site.route(
    '/controls.rss',
    serveBody(() => controlsRss(site.origin), { type: 'application/rss+xml; charset=utf-8' }),
  );
  site.route('/controls.json', serveBody(controlsJson, { type: 'application/feed+json' }));
  const many = manyItemsFeed();
  site.route(
    '/many.json',
    serveBody(() => many, { type: 'application/feed+json' }),
  );
  site.route('/ctl/page', (_q, res) =>
    sendHtml(
      res,
      articleHtml({ title: 'Page\u009b title\u0081', paragraphs: paragraphsFor('/ctl/page').map((p) => `${p}\u009b[2J\u0085\u007f`) }),
    ),
  );
  for (const name of ['stray.rss', 'controls.rss', 'controls.json', 'many.json'])
    ids[name] = (await addFeed(t.db, site.url(`/${name}`), { intervalMinutes: 60 })).id;
  summary = await runCrawlOnce(t.db, t.config);
}, 120_000);

afterAll(async () => {
  await site?.close();
  await t?.cleanup();
});

describe(`a UTF-8 feed with one invalid byte (${provider})`, () => {
  it('is read as UTF-8: every item keeps its accents, U+FFFD only where the byte was, the warning names the count', async () => {
    expect(summary).toMatchObject({ failed: 0 });
    const feed = await t.db.feed.findUniqueOrThrow({ where: { id: ids['stray.rss'] } });
    expect(feed).toMatchObject({ title: 'Stray byte', consecutiveFailures: 0 });
    expect(feed.parseWarning).toBe('1 invalid UTF-8 byte sequence replaced with U+FFFD (the rest read as UTF-8)');
    const items = await t.db.feedItem.findMany({ where: { feedId: feed.id }, orderBy: { itemKey: 'asc' } });
    expect(items.map((i) => i.title)).toEqual(Array.from({ length: ITEMS }, (_, i) => `${ACCENTS} ${i}`));
    for (const item of items) {
      expect(item.fallbackText).toContain(`${ACCENTS}.`);
      expect(item.fallbackText!.includes('\ufffd'), item.itemKey).toBe(item.itemKey === `stray-${STRAY_IN}`);
    }
    const articles = await t.db.article.findMany({ where: { feedId: feed.id } });
    expect(articles).toHaveLength(ITEMS);
    expect(articles.filter((a) => a.text.includes('\ufffd')).map((a) => a.externalId)).toEqual([`stray-${STRAY_IN}`]);
    for (const a of articles) expect(a.text).not.toMatch(/Ã|Â/);
  });
});

describe(`control characters and noncharacters (${provider})`, () => {
  it('are dropped from feed titles, item titles, authors, texts, article pages and snippets; NEL becomes a space', async () => {
    const feeds = await t.db.feed.findMany({
      where: { id: { in: [ids['controls.rss']!, ids['controls.json']!] } },
      orderBy: { id: 'asc' },
    });
    expect(feeds.map((f) => f.title)).toEqual(['Controls2J feed', 'Json controls']);
    const items = await t.db.feedItem.findMany({ where: { feedId: { in: feeds.map((f) => f.id) } }, orderBy: { itemKey: 'asc' } });
    expect(items.map((i) => [i.itemKey, i.title, i.author])).toEqual([
      ['ctl-json-1', 'Noncharacters and C1', 'Bob Writer'],
      ['ctl-rss-1', 'Red31m alert now', 'Ann Author'],
    ]);
    const articles = await t.db.article.findMany({ where: { feedId: { in: feeds.map((f) => f.id) } }, include: { snippets: true } });
    expect(articles).toHaveLength(2);
    const page = articles.find((a) => a.originalUrl.endsWith('/ctl/page'))!;
    expect(page.title).toBe('Red31m alert now');
    expect(page.text).toContain('[2J ');
    for (const a of articles) {
      for (const s of [a.title, a.author ?? '', a.text, a.source, ...a.snippets.flatMap((x) => [x.text, x.title, x.source])])
        expect(s).not.toMatch(FORBIDDEN);
    }
    for (const i of items) for (const s of [i.itemKey, i.title, i.author, i.fallbackText]) expect(s ?? '').not.toMatch(FORBIDDEN);
  });

  it('are dropped from an OPML file’s titles and folders, and from a title an admin sets', async () => {
    const doc = parseOpml(
      Buffer.from(
        `<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><body><outline text="World&#x9b;2J\u0085news\u007f">` +
          `<outline text="Wire&#x9B;31m" xmlUrl="${site.url('/opml-feed.xml')}" htmlUrl="${site.origin}/"/></outline></body></opml>`,
        'utf8',
      ),
    );
    const r = await importFeedList(t.db, t.config, doc, { intervalMinutes: 60 });
    expect(r.added).toHaveLength(1);
    const row = await t.db.feed.findUniqueOrThrow({ where: { id: r.added[0]!.id } });
    expect(row).toMatchObject({ title: 'Wire31m', category: 'World2J news' });
    expect(await setFeedTitle(t.db, row.id, ' Edited\u009b[2J\ufffe title\u0085 ')).toMatchObject({ title: 'Edited[2J title' });
  });
});

describe(`parse warnings an operator can see (${provider})`, () => {
  it('`quin feeds list` shows each warning in the problem column of an ok feed', async () => {
    const many = await t.db.feed.findUniqueOrThrow({ where: { id: ids['many.json'] } });
    expect(many.parseWarning).toContain(`more than ${MAX_NEW_ITEMS_PER_CHECK} new items`);
    const r = await runQuin(['feeds', 'list'], {
      QUIN_DATA_DIR: t.dataDir,
      DATABASE_URL: t.config.databaseUrlResolved,
      QUIN_LOG_LEVEL: 'warn',
    });
    expect(r.status, r.stderr).toBe(0);
    const line = (id: number) => r.stdout.split('\n').find((l) => new RegExp(`^${id}\\s`).test(l)) ?? '';
    expect(line(ids['many.json']!)).toMatch(/^\d+\s+ok\s/);
    expect(line(ids['many.json']!)).toContain(
      `warning: more than ${MAX_NEW_ITEMS_PER_CHECK} new items: the newest ${MAX_NEW_ITEMS_PER_CHECK} were taken in, the rest follow at the next checks`,
    );
    expect(line(ids['stray.rss']!)).toContain('warning: 1 invalid UTF-8 byte sequence replaced with U+FFFD');
    expect(line(ids['controls.json']!)).not.toContain('warning');
    expect(r.stdout).not.toMatch(FORBIDDEN);
  });
});
