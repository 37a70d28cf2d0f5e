#!/usr/bin/env node
// Feeds that misbehave, for measuring the crawler by hand (docs/benchmarks.md, "Hostile feeds and
// overload"), on 127.0.0.1 (the crawler needs QUIN_ALLOW_PRIVATE_HOSTS=true to reach them):
//   /big.json      a JSON Feed of 100,000 items (id, URL of an article page, title; 7.9 MB)
//   /good.rss      a healthy RSS feed of 5 items on the same host
//   /a/N, /g/N     their article pages
//   /lt250k.json   a JSON Feed whose content_html is 250,000 "<"; /lt100k.json the same with 100,000
//   /lt100k.rss    an RSS feed whose description is 100,000 "<"; /lt100k.raw 100,000 "<" and nothing else
//   /page          an article page of 200,000 "<"
// Usage: PORT=3310 node scripts/serve-hostile-feeds.mjs
import http from 'node:http';

const port = Number(process.env.PORT || 3310);
const base = `http://127.0.0.1:${port}`;
const N = Number(process.env.ITEMS || 100_000);
const json = (doc) => Buffer.from(JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', ...doc }));
const big = json({
  title: 'Big',
  items: Array.from({ length: N }, (_, i) => ({ id: `b${i}`, url: `${base}/a/${i}`, title: `Big item ${i}` })),
});
const lt = (n) => json({ title: 'Hostile', items: [{ id: '1', url: `${base}/page`, title: 'x', content_html: '<'.repeat(n) }] });
const para = (k) =>
  Array.from(
    { length: 6 },
    (_, j) =>
      `<p>Paragraph ${j} of story ${k} explains what happened in enough words to be a real article, with several clauses and a full stop at the end.</p>`,
  ).join('');
const good = `<?xml version="1.0"?><rss version="2.0"><channel><title>Good</title>${Array.from(
  { length: 5 },
  (_, i) => `<item><title>Good story ${i}</title><link>${base}/g/${i}</link><guid>g${i}</guid></item>`,
).join('')}</channel></rss>`;
const routes = {
  '/big.json': [big, 'application/feed+json'],
  '/good.rss': [Buffer.from(good), 'application/rss+xml'],
  '/lt250k.json': [lt(250_000), 'application/feed+json'],
  '/lt100k.json': [lt(100_000), 'application/feed+json'],
  '/lt100k.rss': [
    Buffer.from(
      `<?xml version="1.0"?><rss version="2.0"><channel><title>H</title><item><title>t</title><description>${'<'.repeat(100_000)}</description></item></channel></rss>`,
    ),
    'application/rss+xml',
  ],
  '/lt100k.raw': [Buffer.from('<'.repeat(100_000)), 'application/rss+xml'],
  '/page': [Buffer.from(`<!doctype html><html><body><article><p>${'<'.repeat(200_000)}</p></article></body></html>`), 'text/html'],
};

http
  .createServer((req, res) => {
    const r = routes[req.url ?? ''];
    if (r) return res.writeHead(200, { 'content-type': r[1] }).end(r[0]);
    const m = /^\/(a|g)\/(\d+)$/.exec(req.url ?? '');
    if (!m) return res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html><head><title>Story ${m[2]}</title></head><body><article><h1>Story ${m[2]}</h1>${para(req.url)}</article></body></html>`,
      );
  })
  .listen(port, '127.0.0.1', () => console.log(`hostile feeds on ${base} (/big.json: ${big.length} bytes)`));
