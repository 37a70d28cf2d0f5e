/**
 * `quin crawl [--once]`: check due feeds. Without --once it loops until Ctrl-C or SIGTERM, which
 * stop it cleanly (requests in flight are cancelled, the article being stored is stored whole or not
 * at all, leases are released); a second signal exits at once. Progress: a status line on a
 * terminal, log lines otherwise.
 */
import type { Command } from 'commander';
import { crawlLoop, findFeed, runCrawlOnce, type CrawlRunSummary, type FeedRunResult } from '../../crawler';
import { getConfig } from '../../lib/config';
import { getDb, type Db } from '../../lib/db/client';
import { createLogger } from '../../lib/log';
import { createProgress, type Progress } from '../../lib/progress';
import { printJson } from '../output';

const log = createLogger('crawl');

export function summaryLine(s: CrawlRunSummary): string {
  const rate = s.durationMs > 0 ? (s.articlesExtracted / (s.durationMs / 1000)).toFixed(1) : '0';
  return (
    `${s.feeds} feeds checked (${s.ok} ok, ${s.notModified} not modified, ${s.failed} failed${s.paused ? `, ${s.paused} skipped: host asked for a pause` : ''}${s.busy ? `, ${s.busy} busy elsewhere` : ''}); ` +
    `${s.itemsNew} new items, ${s.articlesExtracted} articles (${rate}/s), ${s.articlesFailed} failed, ${s.snippetsMade} snippets in ${(s.durationMs / 1000).toFixed(1)}s` +
    (s.cancelled ? ' (stopped)' : '')
  );
}

/** Stops on the first SIGINT/SIGTERM through the controller, exits on the second. Returns the cleanup. */
function onSignals(controller: AbortController): () => void {
  let count = 0;
  const handler = (signal: NodeJS.Signals) => {
    count += 1;
    if (count > 1) process.exit(130);
    log.info('stopping after the current requests (again to quit at once)', { signal });
    controller.abort(new Error(`${signal} received`));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

function progressHooks() {
  let progress: Progress | undefined;
  let articles = 0;
  return {
    onStart: (n: number) => {
      articles = 0;
      if (n > 0) progress = createProgress({ label: 'crawl', total: n, unit: 'feeds' });
    },
    onFeed: (r: FeedRunResult) => {
      articles += r.articlesExtracted;
      progress?.tick(1);
    },
    done: (s: CrawlRunSummary) => {
      if (progress) progress.done(`${articles} new articles`);
      progress = undefined;
      if (s.feeds || s.busy) log.info(summaryLine(s));
    },
  };
}

export function register(program: Command): void {
  program
    .command('crawl')
    .description('check the feeds that are due and store their new articles; loops until stopped (Ctrl-C / SIGTERM)')
    .option('--once', 'one pass over the due feeds, then exit')
    .option('--feed <idOrUrl...>', 'check only these feeds, now (implies --once)')
    .option('--json', 'with --once: print the run summary as JSON')
    .action(async (opts: { once?: boolean; feed?: string[]; json?: boolean }) => {
      const config = getConfig();
      const db = await getDb(config);
      const controller = new AbortController();
      const offSignals = onSignals(controller);
      const hooks = progressHooks();
      try {
        if (opts.once || opts.feed) {
          const feedIds = opts.feed ? await resolveFeeds(db, opts.feed) : undefined;
          const summary = await runCrawlOnce(db, config, {
            signal: controller.signal,
            feedIds,
            onStart: hooks.onStart,
            onFeed: hooks.onFeed,
          });
          hooks.done(summary);
          if (opts.json) printJson(summary);
          else process.stdout.write(`${summaryLine(summary)}\n`);
          return;
        }
        log.info('crawling until stopped', { concurrency: config.crawlConcurrency, hostDelayMs: config.hostDelayMs });
        const runs = await crawlLoop(db, config, {
          signal: controller.signal,
          onStart: hooks.onStart,
          onFeed: hooks.onFeed,
          onRun: hooks.done,
        });
        log.info('stopped', { runs });
      } finally {
        offSignals();
      }
    });
}

async function resolveFeeds(db: Db, keys: string[]): Promise<number[]> {
  return Promise.all(keys.map(async (k) => (await findFeed(db, k)).id));
}
