/**
 * The `quin` command line. Each subcommand lives in cli/commands/<name>.ts and exports
 * `register(program)`. Errors are printed as one line with their code; exit status 1 for failures,
 * 2 for usage errors.
 */
import { Command, CommanderError } from 'commander';
import { closeDb } from '../lib/db/client';
import { describeError, isQuinError } from '../lib/errors';
import { register as registerAdmin } from './commands/admin';
import { register as registerCheck } from './commands/check';
import { register as registerEval } from './commands/eval';
import { register as registerFeeds } from './commands/feeds';
import { register as registerCrawl } from './commands/crawl';
import { register as registerImport } from './commands/import';
import { register as registerIndex } from './commands/index';
import { register as registerMigrate } from './commands/migrate';
import { register as registerModels } from './commands/models';
import { register as registerSearch } from './commands/search';
import { register as registerStats } from './commands/stats';
import { register as registerWorker } from './commands/worker';

export function buildProgram(): Command {
  const program = new Command('quin')
    .description('Quin news search: crawl feeds, index snippets, check claims against recent news.')
    .showHelpAfterError()
    .exitOverride();
  for (const register of [
    registerMigrate,
    registerFeeds,
    registerCrawl,
    registerImport,
    registerIndex,
    registerSearch,
    registerCheck,
    registerEval,
    registerStats,
    registerWorker,
    registerAdmin,
    registerModels,
  ])
    register(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    process.stderr.write(`quin: ${describeError(err)}\n`);
    // QUIN_DEBUG: a developer switch (stack traces of unexpected errors), not a setting.
    if (!isQuinError(err) && process.env.QUIN_DEBUG) process.stderr.write(`${(err as Error).stack}\n`);
    return 1;
  } finally {
    await closeDb();
  }
}
