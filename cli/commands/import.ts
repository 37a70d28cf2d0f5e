import type { Command } from 'commander';
import { importCorpus, IMPORT_FORMATS } from '../../crawler';
import { getConfig } from '../../lib/config';
import { getDb } from '../../lib/db/client';
import { printJson } from '../output';

export function register(program: Command): void {
  program
    .command('import')
    .description(`load a local corpus through the snippet pipeline (formats: ${Object.keys(IMPORT_FORMATS).join(', ')})`)
    .argument('<format>', 'corpus format')
    .argument('<path>', 'file or folder')
    .option('--json', 'print the summary as JSON')
    .action(async (format: string, path: string, opts: { json?: boolean }) => {
      const config = getConfig();
      const db = await getDb(config);
      const summary = await importCorpus(db, format, path, {
        window: { size: config.snippetSentences, stride: config.snippetStride, minChars: config.snippetMinChars },
      });
      if (opts.json) printJson(summary);
      else
        process.stdout.write(
          `imported ${format} from ${path}: ${summary.created} new, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.empty} empty; ${summary.snippets} snippets in ${summary.seconds.toFixed(1)}s\n`,
        );
    });
}
