import type { Command } from 'commander';
import { crawlStats } from '../../crawler';
import { getConfig } from '../../lib/config';
import { getDb } from '../../lib/db/client';
import { formatTable, printJson } from '../output';

export function register(program: Command): void {
  program
    .command('stats')
    .description('counts of feeds, articles and snippets, crawl health and ingestion per day')
    .option('--json', 'print as JSON ({"feeds","articles","snippets", "feedsByStatus", "totals", "perDay", "feedHealth"})')
    .action(async (opts: { json?: boolean }) => {
      const stats = await crawlStats(await getDb(getConfig()));
      if (opts.json) return printJson(stats);
      const status = Object.entries(stats.feedsByStatus)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ');
      const t = stats.totals;
      const active = stats.perDay.filter((d) => d.articles || d.snippets || d.feedChecks);
      process.stdout.write(
        `feeds: ${stats.feeds}${status ? ` (${status})` : ''}\narticles: ${stats.articles}\nsnippets: ${stats.snippets}\n` +
          `crawl totals: ${t.itemsSeen} items seen, ${t.itemsNew} new, ${t.articlesExtracted} articles extracted, ${t.articlesFailed} failed, ${t.snippetsMade} snippets\n` +
          (active.length
            ? `\n${formatTable(
                ['day (UTC)', 'articles', 'snippets', 'feed checks', 'errors'],
                active.map((d) => [d.day, d.articles, d.snippets, d.feedChecks, d.feedErrors]),
              )}\n`
            : ''),
      );
    });
}
