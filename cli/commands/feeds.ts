import type { Command } from 'commander';
import { addFeed, listFeedHealth, removeFeed } from '../../crawler';
import { getConfig } from '../../lib/config';
import { getDb } from '../../lib/db/client';
import { printJson, printTable } from '../output';

const when = (iso: string | null) => (iso ? iso.replace('T', ' ').slice(0, 16) : '—');

export function register(program: Command): void {
  const feeds = program.command('feeds').description('manage the feeds the crawler polls');

  feeds
    .command('add')
    .argument('<url>', 'RSS, Atom or RDF feed URL')
    .option('--interval <minutes>', 'polling interval in minutes')
    .action(async (url: string, opts: { interval?: string }) => {
      const config = getConfig();
      const interval = opts.interval === undefined ? config.feedIntervalMinutes : Number(opts.interval);
      if (!Number.isInteger(interval) || interval < 1) throw new Error(`--interval must be a whole number of minutes ≥ 1, got ${opts.interval}`);
      const feed = await addFeed(await getDb(config), url, { intervalMinutes: interval });
      process.stdout.write(`added feed ${feed.id}: ${feed.url} (every ${feed.intervalMinutes} min)\n`);
    });

  feeds
    .command('list')
    .option('--json', 'print as JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await listFeedHealth(await getDb(getConfig()));
      if (opts.json) return printJson(rows);
      printTable(
        ['id', 'status', 'fails', 'last check', 'next check', 'items', 'new', 'articles', 'failed', 'snippets', 'url', 'last error'],
        rows.map((f) => [
          f.id,
          f.status,
          f.consecutiveFailures,
          when(f.lastCheckedAt),
          when(f.nextCheckAt),
          f.itemsSeen,
          f.itemsNew,
          f.articlesExtracted,
          f.articlesFailed,
          f.snippetsMade,
          f.url,
          f.lastError ? f.lastError.slice(0, 60) : '',
        ]),
      );
    });

  feeds
    .command('remove')
    .argument('<id|url>', 'feed id or URL')
    .action(async (idOrUrl: string) => {
      const feed = await removeFeed(await getDb(getConfig()), idOrUrl);
      process.stdout.write(`removed feed ${feed.id}: ${feed.url}\n`);
    });
}
