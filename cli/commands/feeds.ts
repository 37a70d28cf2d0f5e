import type { Command } from 'commander';
import {
  addFeed,
  assertUrlAllowed,
  listFeedHealth,
  normalizeFeedUrl,
  pauseFeed,
  probeFeed,
  refreshFeedNow,
  removeFeed,
  resumeFeed,
  type FeedHealth,
} from '../../crawler';
import { getConfig } from '../../lib/config';
import { getDb } from '../../lib/db/client';
import { createError } from '../../lib/errors';
import { formatTable, printJson } from '../output';

const when = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) : '—');

/** The error column: only for a feed that is failing now (an old error of a healthy feed is history). */
function errorCell(f: FeedHealth): string {
  if (f.consecutiveFailures === 0 || !f.lastError) return '';
  const text = f.lastError.replace(/^[A-Z_]+: /, '');
  return `${f.lastErrorCode ?? 'ERROR'}: ${text.length > 90 ? `${text.slice(0, 89)}…` : text}`;
}

export function feedsTable(rows: FeedHealth[]): string {
  return formatTable(
    ['id', 'status', 'fails', 'last check', 'next check', 'items', 'new', 'pending', 'articles', 'failed', 'snippets', 'url', 'error'],
    rows.map((f) => [
      f.id,
      f.status,
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
      errorCell(f),
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
      // Refused at once, --check or not: the crawl would refuse every fetch of it anyway.
      await assertUrlAllowed(new URL(normalizeFeedUrl(url)), config.allowPrivateHosts);
      if (opts.check) {
        const probe = await probeFeed(url, config);
        process.stdout.write(`${probe.format} feed "${probe.title ?? '(untitled)'}" with ${probe.items} items\n`);
      }
      const feed = await addFeed(await getDb(config), url, { intervalMinutes: interval });
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
    .command('remove')
    .argument('<id|url>', 'feed id or URL')
    .action(async (idOrUrl: string) => {
      const feed = await removeFeed(await getDb(getConfig()), idOrUrl);
      process.stdout.write(`removed feed ${feed.id}: ${feed.url}\n`);
    });
}
