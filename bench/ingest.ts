/**
 * `npm run bench:ingest [-- --pages 300 --write-docs]`
 *
 * Ingest throughput on this machine:
 *  1. extraction + splitting: Readability on jsdom, sentence splitting and 5-sentence windows over
 *     local news pages (Reuters-21578 stories wrapped in a page with navigation, aside and footer);
 *  2. the whole crawl of those pages from a local HTTP server (one host, so one request at a time,
 *     without the politeness delay): fetch, extract, split, store article + snippets transactionally;
 *  3. `quin import reuters` of the whole Reuters-21578 corpus (22 SGML files), and again (adds nothing).
 * SQLite in a temporary data directory. Prints a Markdown table; --write-docs puts it in
 * docs/benchmarks.md between the bench:ingest markers.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  DEFAULT_WINDOW,
  addFeed,
  extractArticle,
  importCorpus,
  makeSnippets,
  parseReutersSgml,
  runCrawlOnce,
  splitSentences,
  type ReutersDoc,
} from '../crawler';
import { loadConfig, type Config } from '../lib/config';
import { createDb } from '../lib/db/client';
import { migrate } from '../lib/db/migrate';
import { projectRoot, sharedDataDir } from '../lib/paths';
import { summarize } from './stats';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function pageHtml(d: ReutersDoc): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${esc(d.title)} | Bench News</title>
<meta property="article:published_time" content="${d.date?.toISOString() ?? ''}"><script>var tracking = true;</script>
<link rel="canonical" href="/story/${d.newId}?utm_source=bench"></head><body>
<header><nav><a href="/">Home</a> <a href="/markets">Markets</a> <a href="/world">World</a> <a href="/sport">Sport</a></nav></header>
<aside><h3>Most read</h3><ul><li><a href="/a">Another story</a></li><li><a href="/b">Yet another story</a></li></ul></aside>
<main><article><h1>${esc(d.title)}</h1>${d.text
    .split('\n')
    .map((p) => `<p>${esc(p)}</p>`)
    .join('\n')}</article></main>
<footer><p>Copyright Bench News. All rights reserved.</p><a href="/privacy">Privacy</a></footer></body></html>`;
}

function feedXml(origin: string, docs: ReutersDoc[]): string {
  const items = docs.map(
    (d) =>
      `<item><title>${esc(d.title)}</title><link>${origin}/story/${d.newId}</link><guid>${origin}/story/${d.newId}</guid><pubDate>${d.date?.toUTCString() ?? ''}</pubDate></item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bench News</title><link>${origin}/</link>${items.join('')}</channel></rss>`;
}

async function serve(docs: ReutersDoc[]): Promise<{ origin: string; close(): Promise<void> }> {
  const pages = new Map(docs.map((d) => [`/story/${d.newId}`, pageHtml(d)]));
  let feed = '';
  const server = http.createServer((req, res) => {
    const p = (req.url ?? '/').split('?')[0]!;
    if (p === '/feed.xml') return void res.writeHead(200, { 'Content-Type': 'application/rss+xml' }).end(feed);
    const page = pages.get(p);
    if (page) return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  feed = feedXml(origin, docs);
  return { origin, close: () => new Promise((r) => server.close(() => r())) };
}

function benchConfig(dataDir: string): Config {
  return loadConfig({
    env: {},
    configFile: null,
    overrides: {
      dataDir,
      allowPrivateHosts: true,
      hostDelayMs: 0,
      fetchTimeoutMs: 60_000,
      logLevel: 'warn',
    },
    tuning: { maxArticlesPerFeedRun: 100_000 },
  });
}

interface Row {
  what: string;
  articles: number;
  snippets: number;
  seconds: number;
  note: string;
}

function extractionBench(docs: ReutersDoc[]): Row & { msPerArticle: ReturnType<typeof summarize> } {
  const window = { size: 5, stride: 3, minChars: 40 };
  const times: number[] = [];
  let snippets = 0;
  const t0 = performance.now();
  for (const d of docs) {
    const s = performance.now();
    const page = extractArticle(pageHtml(d), `http://bench.local/story/${d.newId}`);
    snippets += makeSnippets(splitSentences(page.text), window).length;
    times.push(performance.now() - s);
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    what: 'extract + split (Readability on jsdom, sentences, windows)',
    articles: docs.length,
    snippets,
    seconds,
    note: 'CPU only, one core',
    msPerArticle: summarize(times),
  };
}

async function crawlBench(docs: ReutersDoc[]): Promise<Row> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-bench-crawl-'));
  const site = await serve(docs);
  const config = benchConfig(dataDir);
  await migrate(config);
  const db = createDb(config);
  try {
    await addFeed(db, `${site.origin}/feed.xml`, { intervalMinutes: 60 });
    const s = await runCrawlOnce(db, config);
    return {
      what: 'crawl from a local server (fetch, extract, split, store)',
      articles: s.articlesExtracted,
      snippets: s.snippetsMade,
      seconds: s.durationMs / 1000,
      note: 'one host: one request at a time, no politeness delay; SQLite',
    };
  } finally {
    await db.$disconnect();
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function importBench(dir: string): Promise<Row[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-bench-import-'));
  const config = benchConfig(dataDir);
  await migrate(config);
  const db = createDb(config);
  const window = DEFAULT_WINDOW;
  try {
    const first = await importCorpus(db, 'reuters', dir, { window, progress: false });
    const again = await importCorpus(db, 'reuters', dir, { window, progress: false });
    return [
      {
        what: '`quin import reuters` (21,578 stories, 22 SGML files)',
        articles: first.created,
        snippets: first.snippets,
        seconds: first.seconds,
        note: `SQLite (with the FTS5 triggers of the index migration); ${first.empty.toLocaleString('en-US')} stories without text or too short for a snippet skipped`,
      },
      {
        what: 'the same import again',
        articles: again.created,
        snippets: again.snippets,
        seconds: again.seconds,
        note: `${again.unchanged.toLocaleString('en-US')} unchanged (${Math.round((again.unchanged + again.empty) / again.seconds).toLocaleString('en-US')} stories checked/s), nothing written`,
      },
    ];
  } finally {
    await db.$disconnect();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function table(rows: Row[]): string {
  const rate = (n: number, s: number) => (s > 0 && n > 0 ? Math.round(n / s).toLocaleString('en-US') : '–');
  return [
    '| stage | articles | snippets | seconds | articles/s | snippets/s | notes |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows.map(
      (r) =>
        `| ${r.what} | ${r.articles.toLocaleString('en-US')} | ${r.snippets.toLocaleString('en-US')} | ${r.seconds.toFixed(1)} | ${rate(r.articles, r.seconds)} | ${rate(r.snippets, r.seconds)} | ${r.note} |`,
    ),
  ].join('\n');
}

export const DOC_START = '<!-- bench:ingest:start (generated by `npm run bench:ingest -- --write-docs`) -->';
export const DOC_END = '<!-- bench:ingest:end -->';

function writeDocs(md: string): void {
  const file = path.join(projectRoot(), 'docs', 'benchmarks.md');
  const doc = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const a = doc.indexOf(DOC_START);
  const b = doc.indexOf(DOC_END);
  const section = `${DOC_START}\n## Ingest\n\n${md}\n${DOC_END}`;
  const next = a >= 0 && b > a ? doc.slice(0, a) + section + doc.slice(b + DOC_END.length) : `${doc.trimEnd()}\n\n${section}\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, next);
  process.stderr.write(`updated ${file}\n`);
}

async function main(): Promise<void> {
  const dir = path.join(sharedDataDir(), 'news', 'reuters21578');
  if (!fs.existsSync(dir)) throw new Error(`bench:ingest needs the Reuters-21578 corpus at ${dir} (set QUIN_SHARED_DATA)`);
  const pagesWanted = Number(arg('pages', '300'));
  const docs = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sgm'))
    .sort()
    .flatMap((f) => parseReutersSgml(fs.readFileSync(path.join(dir, f), 'latin1')))
    .filter((d) => d.text.length > 600)
    .slice(0, pagesWanted);

  process.stderr.write(`bench:ingest: ${docs.length} pages, extraction…\n`);
  const extraction = extractionBench(docs);
  process.stderr.write('bench:ingest: crawl…\n');
  const crawl = await crawlBench(docs);
  process.stderr.write('bench:ingest: import…\n');
  const imports = await importBench(dir);

  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
  const command = `npm run bench:ingest -- --pages ${pagesWanted}`;
  const md = [
    `Command: \`${command}\` · machine: ${machine} · ${new Date().toISOString().slice(0, 10)}.`,
    '',
    `Pages: ${docs.length} Reuters-21578 stories of more than 600 characters, each wrapped in a news page with navigation, an aside, a script and a footer. Snippets: 5 sentences, stride 3.`,
    '',
    table([extraction, crawl, ...imports]),
    '',
    `Extraction + splitting per article: p50 ${extraction.msPerArticle.p50} ms, p95 ${extraction.msPerArticle.p95} ms, p99 ${extraction.msPerArticle.p99} ms.`,
    'A real crawl is bounded by politeness instead: one request at a time per host with `QUIN_HOST_DELAY_MS` (default 1 s) between them, so about one article per second per site, with `QUIN_CRAWL_CONCURRENCY` sites in parallel.',
  ].join('\n');
  const outDir = path.join(projectRoot(), 'out', 'bench');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'ingest.json'), JSON.stringify({ machine, command, extraction, crawl, imports }, null, 2) + '\n');
  process.stdout.write(md + '\n');
  if (process.argv.includes('--write-docs')) writeDocs(md);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().catch((e: unknown) => {
    process.stderr.write(`bench:ingest failed: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}
