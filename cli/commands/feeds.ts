import fs from 'node:fs';
import type { Command } from 'commander';
import {
  admitFeed,
  addSeedFeeds,
  checkFeedUrl,
  feedListForExport,
  findFeed,
  importFeedList,
  listFeedHealth,
  OPML_MAX_BYTES,
  parseOpml,
  pauseFeed,
  probeFeed,
  refreshFeedNow,
  removeFeed,
  resumeFeed,
  setFeedInterval,
  setFeedTitle,
  writeOpml,
  type FeedHealth,
} from '../../crawler';
import { getConfig } from '../../lib/config';
import { getDb } from '../../lib/db/client';
import { createError } from '../../lib/errors';
import { formatTable, printJson } from '../output';

const when = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) : '—');

const cut = (s: string, n = 90) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The error of a feed failing now, or why a feed that is read is degraded (an old error of a healthy feed is history). */
function errorText(f: FeedHealth): string | null {
  if (f.state === 'degraded') return cut(f.stateReason ?? '');
  if (f.consecutiveFailures === 0 || !f.lastError) return null;
  return `${f.lastErrorCode ?? 'ERROR'}: ${cut(f.lastError.replace(/^[A-Z_]+: /, ''))}`;
}

/**
 * The problem column: the error, then what had to be forgiven to read the last document, in full (a
 * feed read with warnings is "ok" but not silently so: its warnings are not cut, they are the news).
 */
function problemCell(f: FeedHealth): string {
  return [errorText(f), f.parseWarning ? `warning: ${f.parseWarning}` : null].filter(Boolean).join(' | ');
}

export function feedsTable(rows: FeedHealth[]): string {
  return formatTable(
    ['id', 'state', 'fails', 'last check', 'next check', 'items', 'new', 'pending', 'articles', 'failed', 'snippets', 'url', 'problem'],
    rows.map((f) => [
      f.id,
      f.state,
      f.consecutiveFailures,
      when(f.lastCheckedAt),
      when(f.nextCheckAt),
      f.itemsSeen,
      f.itemsNew,
      f.pendingItems,
      f.articlesExtracted,
      f.articlesFailed,
      f.snippetsMade,
      f.url,
      problemCell(f),
    ]),
  );
}

function parseInterval(raw: string | undefined, fallback: number): number {
  const interval = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(interval) || interval < 1)
    throw createError('INVALID_INPUT', `--interval must be a whole number of minutes ≥ 1, got ${raw}`);
  return interval;
}

export function register(program: Command): void {
  const feeds = program.command('feeds').description('manage the feeds the crawler polls');

  feeds
    .command('add')
    .argument('<url>', 'RSS, Atom or RDF feed URL')
    .option('--interval <minutes>', 'polling interval in minutes')
    .option('--check', 'fetch the URL once first and refuse it when it is not a feed')
    .action(async (url: string, opts: { interval?: string; check?: boolean }) => {
      const config = getConfig();
      const interval = parseInterval(opts.interval, config.feedIntervalMinutes);
      // The one rule for new feeds (address guard and validation), --check or not.
      const checked = await checkFeedUrl(url, config);
      if (opts.check) {
        const probe = await probeFeed(checked, config);
        process.stdout.write(`${probe.format} feed "${probe.title ?? '(untitled)'}" with ${probe.items} items\n`);
      }
      const feed = await admitFeed(await getDb(config), config, checked, { intervalMinutes: interval });
      process.stdout.write(`added feed ${feed.id}: ${feed.url} (every ${feed.intervalMinutes} min)\n`);
    });

  feeds
    .command('probe')
    .description('fetch a URL once and say whether (and what kind of) feed it is')
    .argument('<url>')
    .action(async (url: string) => printJson(await probeFeed(url, getConfig())));

  feeds
    .command('list')
    .description('feeds with their crawl health (failing and broken feeds first)')
    .option('--json', 'print as JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await listFeedHealth(await getDb(getConfig()));
      if (opts.json) return printJson(rows);
      process.stdout.write(rows.length ? `${feedsTable(rows)}\n` : 'no feeds (add one with `quin feeds add <url>`)\n');
    });

  for (const [name, verb, fn] of [
    ['pause', 'paused', pauseFeed],
    ['resume', 'resumed', resumeFeed],
    ['refresh', 'due now', refreshFeedNow],
  ] as const) {
    feeds
      .command(name)
      .argument('<id|url>', 'feed id or URL')
      .action(async (idOrUrl: string) => {
        const feed = await fn(await getDb(getConfig()), idOrUrl);
        process.stdout.write(`feed ${feed.id} ${verb}: ${feed.url}\n`);
      });
  }

  feeds
    .command('set')
    .description("change a feed's title or polling interval")
    .argument('<id|url>', 'feed id or URL')
    .option('--title <title>', 'display name (an empty string: the title the feed gives itself at its next check)')
    .option('--interval <minutes>', 'polling interval in minutes')
    .action(async (idOrUrl: string, opts: { title?: string; interval?: string }) => {
      if (opts.title === undefined && opts.interval === undefined) throw createError('INVALID_INPUT', 'give --title and/or --interval');
      const db = await getDb(getConfig());
      const feed = await findFeed(db, idOrUrl);
      if (opts.interval !== undefined) await setFeedInterval(db, feed.id, parseInterval(opts.interval, feed.intervalMinutes));
      // Last, so that the row printed below is the one stored.
      const updated = opts.title !== undefined ? await setFeedTitle(db, feed.id, opts.title) : await findFeed(db, feed.id);
      process.stdout.write(`feed ${updated.id}: "${updated.title ?? '(untitled)'}", every ${updated.intervalMinutes} min\n`);
    });

  feeds
    .command('import')
    .description("add the feeds of an OPML file (a feed reader's export); folders are kept, feeds already crawled are left as they are")
    .argument('<file>', 'OPML file')
    .option('--interval <minutes>', 'polling interval of the new feeds in minutes')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, opts: { interval?: string; json?: boolean }) => {
      const config = getConfig();
      const size = fs.statSync(file).size;
      if (size > OPML_MAX_BYTES)
        throw createError('INVALID_INPUT', `not a usable OPML file: ${file} is ${size} bytes, more than the ${OPML_MAX_BYTES} allowed`);
      const doc = parseOpml(fs.readFileSync(file));
      const r = await importFeedList(await getDb(config), config, doc, {
        intervalMinutes: parseInterval(opts.interval, config.feedIntervalMinutes),
      });
      if (opts.json) return printJson(r);
      process.stdout.write(
        `${r.added.length} added, ${r.existing.length} already there, ${r.skipped.length} skipped (from ${doc.feeds.length + doc.skipped.length} feed outlines in ${file})\n`,
      );
      for (const s of r.skipped) process.stdout.write(`  skipped ${s.url ?? '(no URL)'}: ${s.reason}\n`);
      if (r.added.length) process.stdout.write('The new feeds are checked at the next crawl (`quin crawl --once`, or the worker).\n');
    });

  feeds
    .command('seed')
    .description('add the default news feeds now (QUIN_SEED_FEEDS: the default list, or your own URLs); feeds already there are kept')
    .action(async () => {
      const config = getConfig();
      const r = await addSeedFeeds(await getDb(config), config);
      process.stdout.write(`${r.added.length} default feeds added; they are checked at the next crawl\n`);
      for (const s of r.skipped) process.stdout.write(`  skipped ${s.url ?? '(no URL)'}: ${s.reason}\n`);
    });

  feeds
    .command('export')
    .description('write the feed list as OPML 2.0 (folders as nested outlines)')
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (opts: { out?: string }) => {
      const xml = writeOpml(await feedListForExport(await getDb(getConfig())), { title: 'Quin news feeds' });
      if (opts.out) fs.writeFileSync(opts.out, xml);
      else process.stdout.write(xml);
    });

  feeds
    .command('remove')
    .argument('<id|url>', 'feed id or URL')
    .action(async (idOrUrl: string) => {
      const feed = await removeFeed(await getDb(getConfig()), idOrUrl);
      process.stdout.write(`removed feed ${feed.id}: ${feed.url}\n`);
    });
}
