/**
 * A local news site for the end-to-end tests (nothing reaches the internet): an RSS 2.0 feed whose
 * items link to article pages on the same server, an HTML page that is not a feed, and robots.txt.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join as pathJoin } from 'node:path';
import { ROOT } from './state';

/** Fact-check pages with real-world ClaimReview JSON-LD (crawler/testdata/claimreview/), crawled through /factcheck/feed.xml. */
export const FACT_CHECK_PAGES = ['single-object', 'graph'] as const;

export const FEED_ARTICLES = [
  {
    slug: 'tidal-lagoon',
    title: 'Tidal lagoon power plant wins planning approval',
    paragraphs: [
      'A tidal lagoon power plant on the estuary won planning approval on Wednesday after a two-year inquiry.',
      'The lagoon would generate electricity from the rise and fall of the tide for about ninety thousand homes, its developers said.',
      'Environmental groups had objected that the sea wall would disturb feeding grounds for wading birds in the estuary.',
      'The planning inspector said the developers must fund a new wetland reserve further up the coast before construction starts.',
      'Construction of the tidal lagoon is expected to begin next spring and to take four years.',
      'Local businesses welcomed the decision, saying the project would bring several hundred jobs to the area.',
    ],
  },
  {
    slug: 'ferry-timetable',
    title: 'Island ferry adds winter sailings after complaints',
    paragraphs: [
      'The island ferry operator will add two winter sailings a day after complaints from residents about cancelled crossings.',
      'Residents said the reduced timetable had left workers and patients stranded on the mainland overnight.',
      'The operator said a second vessel would return from refit in November and allow the extra sailings.',
      'The island council said it would monitor punctuality every month and publish the figures online.',
      'Fares will not change for the rest of the year, the operator confirmed.',
    ],
  },
  {
    slug: 'library-hours',
    title: 'Town library extends opening hours for exam season',
    paragraphs: [
      'The town library will stay open until ten in the evening during the exam season, the county council announced.',
      'Students had asked for more quiet space to revise after the college study rooms closed for building work.',
      'Volunteers from the friends of the library group will help staff the evening sessions.',
      'The longer hours will run from May until the end of June and will be reviewed in the autumn.',
      'Free drinking water and phone charging points will also be available in the reading room.',
    ],
  },
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function feedXml(origin: string): string {
  const now = Date.now();
  const items = FEED_ARTICLES.map(
    (a, i) => `    <item>
      <title>${esc(a.title)}</title>
      <link>${origin}/news/${a.slug}.html</link>
      <guid>${origin}/news/${a.slug}.html</guid>
      <pubDate>${new Date(now - (i + 1) * 3600_000).toUTCString()}</pubDate>
      <description>${esc(a.paragraphs[0]!)}</description>
    </item>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>Estuary Evening News</title>
    <link>${origin}/</link>
    <description>Local news from the estuary towns</description>
    <language>en</language>
${items}
  </channel>
</rss>`;
}

function articleHtml(a: (typeof FEED_ARTICLES)[number], published: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${esc(a.title)} | Estuary Evening News</title>
<meta property="article:published_time" content="${published}"></head>
<body><header><nav><a href="/">Home</a> <a href="/sport">Sport</a></nav></header>
<article><h1>${esc(a.title)}</h1>${a.paragraphs.map((p) => `<p>${esc(p)}</p>`).join('')}</article>
<footer>Estuary Evening News</footer></body></html>`;
}

/** An RSS feed whose items carry no text of their own and link to pages that do not exist: read fine, no article. */
function degradedXml(origin: string): string {
  const items = ['one', 'two', 'three']
    .map(
      (n, i) =>
        `<item><title>Gone story ${n}</title><link>${origin}/gone/${n}.html</link><guid>${origin}/gone/${n}.html</guid><pubDate>${new Date(Date.now() - (i + 1) * 3600_000).toUTCString()}</pubDate></item>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Science Twis</title><link>${origin}/</link><description>Items without articles</description>\n${items}\n</channel></rss>`;
}

function factCheckXml(origin: string): string {
  const items = FACT_CHECK_PAGES.map(
    (p, i) =>
      `<item><title>Fact check ${p}</title><link>${origin}/factcheck/${p}.html</link><guid>${origin}/factcheck/${p}.html</guid><pubDate>${new Date(Date.now() - (i + 1) * 3600_000).toUTCString()}</pubDate></item>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Coast Fact</title><link>${origin}/</link><description>Fact checks</description>\n${items}\n</channel></rss>`;
}

/**
 * A UTF-8 feed (declared in the HTTP header and the XML declaration) whose items carry their own text,
 * with one 0xFF byte in one item: read as UTF-8 all the same, with a warning that names the count.
 */
function strayByteRss(): Buffer {
  const utf8 = (t: string) => Buffer.from(t, 'utf8');
  const items = ['Alpine', 'Lakeside'].map((place, i) => [
    utf8(`<item><guid>stray-${i}</guid><title>Café naïve résumé Zürich: ${place} tasting notes</title><description>`),
    i === 1 ? Buffer.from([0xff]) : Buffer.alloc(0),
    utf8(
      `The ${place.toLowerCase()} café in Zürich wrote a naïve résumé of its tasting menu for the winter season. Its chef said the menu would change every month and that local cheese and river fish would stay on it. Bookings for the tasting evenings open in the first week of December, the café said on its website.</description></item>`,
    ),
  ]);
  return Buffer.concat([
    utf8(
      '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Zürich Café Notes</title><link>https://cafe.invalid/</link>',
    ),
    ...items.flat(),
    utf8('</channel></rss>'),
  ]);
}

export interface FeedServer {
  origin: string;
  feedUrl: string;
  notAFeedUrl: string;
  /** A feed whose items all fail to become articles (a "degraded" feed). */
  degradedFeedUrl: string;
  /** An HTML page that links to a feed (/other/feed.xml) it is not. */
  linksPageUrl: string;
  /** A feed of fact-check pages carrying ClaimReview JSON-LD. */
  factCheckFeedUrl: string;
  /** Parses once (so it can be added), then answers 500: a failing feed for the dashboard. */
  flakyFeedUrl: string;
  /** A UTF-8 feed with one invalid byte: ok, with a parse warning. */
  strayByteFeedUrl: string;
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  let flakyServed = 0;
  const server = http.createServer((req, res) => {
    const origin = `http://${req.headers.host}`;
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (path === '/news/feed.xml')
      return void res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(feedXml(origin));
    if (path === '/flaky/feed.xml') {
      if (flakyServed++ === 0)
        return void res
          .writeHead(200, { 'content-type': 'application/rss+xml' })
          .end(feedXml(origin).replace('Estuary Evening News', 'Estuary Sports Desk'));
      return void res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
    }
    if (path === '/stray/feed.xml')
      return void res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(strayByteRss());
    if (path === '/degraded/feed.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(degradedXml(origin));
    if (path === '/factcheck/feed.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(factCheckXml(origin));
    const fc = /^\/factcheck\/([a-z-]+)\.html$/.exec(path);
    if (fc && (FACT_CHECK_PAGES as readonly string[]).includes(fc[1]!)) {
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(fs.readFileSync(pathJoin(ROOT, 'crawler', 'testdata', 'claimreview', `${fc[1]}.html`)));
    }
    if (path === '/links.html')
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!DOCTYPE html><html><head><title>Harbour Times</title><link rel="alternate" type="application/rss+xml" title="Harbour Times" href="/other/feed.xml"></head><body><h1>Harbour Times</h1></body></html>',
        );
    // Its items are not the news site's articles: adding it must not take them from the feed other tests add.
    if (path === '/other/feed.xml')
      return void res
        .writeHead(200, { 'content-type': 'application/rss+xml' })
        .end(degradedXml(origin).replace('Science Twis', 'Harbour Times'));
    // A publisher's title with angle brackets that are text, escaped in the XML (they must survive as text, not be stripped as markup).
    if (path === '/update/feed.xml')
      return void res
        .writeHead(200, { 'content-type': 'application/rss+xml' })
        .end(degradedXml(origin).replace('Science Twis', 'Harbour Weekly &lt;update&gt;'));
    if (path === '/about.html')
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!DOCTYPE html><html><body><h1>About us</h1><p>We are a newspaper.</p></body></html>');
    const m = /^\/news\/([a-z-]+)\.html$/.exec(path);
    const article = m && FEED_ARTICLES.find((a) => a.slug === m[1]);
    if (article)
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(articleHtml(article, new Date(Date.now() - 3600_000).toISOString()));
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    feedUrl: `${origin}/news/feed.xml`,
    notAFeedUrl: `${origin}/about.html`,
    degradedFeedUrl: `${origin}/degraded/feed.xml`,
    linksPageUrl: `${origin}/links.html`,
    factCheckFeedUrl: `${origin}/factcheck/feed.xml`,
    flakyFeedUrl: `${origin}/flaky/feed.xml`,
    strayByteFeedUrl: `${origin}/stray/feed.xml`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
