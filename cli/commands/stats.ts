import type { Command } from 'commander';
import { crawlStats } from '../../crawler';
import { getConfig } from '../../lib/config';
import { getDb } from '../../lib/db/client';
import { printJson } from '../output';

export function register(program: Command): void {
  program
    .command('stats')
    .description('counts of feeds, articles and snippets, and crawl health')
    .option('--json', 'print as JSON')
    .action(async (opts: { json?: boolean }) => {
      const stats = await crawlStats(await getDb(getConfig()));
      if (opts.json) return printJson(stats);
      const status = Object.entries(stats.feedsByStatus).map(([k, v]) => `${v} ${k}`).join(', ');
      process.stdout.write(
        `feeds: ${stats.feeds}${status ? ` (${status})` : ''}\narticles: ${stats.articles}\nsnippets: ${stats.snippets}\n` +
          `items seen: ${stats.totals.itemsSeen}, new: ${stats.totals.itemsNew}, extracted: ${stats.totals.articlesExtracted}, failed: ${stats.totals.articlesFailed}\n`,
      );
    });
}
