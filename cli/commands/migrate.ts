import type { Command } from 'commander';
import { getConfig } from '../../lib/config';
import { migrate } from '../../lib/db/migrate';

export function register(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations (also done automatically at start)')
    .action(async () => {
      const config = getConfig();
      const r = await migrate(config);
      process.stdout.write(
        `${config.databaseProvider}: ${r.applied.length} applied${r.applied.length ? ` (${r.applied.join(', ')})` : ''}, ${r.alreadyApplied.length} already applied\n`,
      );
    });
}
