/**
 * What the benchmarks that serve a built corpus share: running as the web server runs (its Node
 * flags, lib/web/node-flags.ts), the load average they print, and closing what a search context opened.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { closeSearchIndexes } from '../indexer';
import type { Db } from '../lib/db/client';
import { closeLoadedModels } from '../lib/models';
import { webNodeFlags } from '../lib/web/node-flags';

/**
 * Runs this script again with the web server's Node flags unless it was started with a heap size
 * of its own (for comparing one with another); returns only in the process that has them.
 */
export function serveAsWebServer(): void {
  const flags = webNodeFlags(process.env, process.execArgv);
  if (!flags.length) return;
  const again = spawnSync(process.execPath, [...process.execArgv, ...flags, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}

/** The load average over 1, 5 and 15 minutes, as the benchmarks print it beside their numbers. */
export const loadText = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** The indexes, the model threads and the database client a search context opened. */
export async function closeServing(db: Db): Promise<void> {
  await closeSearchIndexes();
  await closeLoadedModels();
  await db.$disconnect();
}
