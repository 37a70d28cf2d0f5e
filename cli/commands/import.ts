import type { Command } from 'commander';
import { DEFAULT_WINDOW, importCorpus, IMPORT_FORMATS } from '../../crawler';
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
    .addHelpText(
      'after',
      `
Formats (importing the same corpus again adds nothing):
  jsonl     one {"id","title","text","url"?,"published"?,"source"?} object a line (a file, or a folder of them)
  scifact   SciFact corpus.jsonl (sentences kept as given)
  reuters   the Reuters-21578 folder of reut2-*.sgm files, or one file (1987 dates kept)
  bbc       the BBC News folder of topic folders of .txt files (first line = title; no dates)
  huffpost  HuffPost News Category JSON lines (headline + short description, link, date): the file or its folder`,
    )
    .action(async (format: string, path: string, opts: { json?: boolean }) => {
      const config = getConfig();
      const db = await getDb(config);
      const summary = await importCorpus(db, format, path, {
        window: DEFAULT_WINDOW,
      });
      if (opts.json) printJson(summary);
      else
        process.stdout.write(
          `imported ${format} from ${path}: ${summary.created} new, ${summary.updated} updated, ${summary.unchanged} unchanged, ${summary.empty} empty; ${summary.snippets} snippets in ${summary.seconds.toFixed(1)}s\n`,
        );
    });
}
