import path from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_TAMPER_SEED, evaluateTampered } from '../../eval/tamper/evaluate';
import { getConfig } from '../../lib/config';
import { sharedDataDir } from '../../lib/paths';
import { printJson } from '../output';

/** `quin eval tampered`: whole articles with one detail changed in some sentences, checked claim by claim. */
export function registerTampered(evalCmd: Command): void {
  evalCmd
    .command('tampered')
    .description(
      'held-out BBC articles with one detail changed in about a third of their check-worthy sentences, each article checked claim by claim (quin check) against the original coverage: precision and recall of the REFUTED flags, unchanged sentences flagged REFUTED, compound claims split, latency per claim and per article',
    )
    .option('--articles <n>', 'articles checked', '20')
    .option('--seed <n>', 'sampling seed', String(DEFAULT_TAMPER_SEED))
    .option('--out <dir>', 'where results.json and predictions.jsonl go', path.join('out', 'eval', 'tampered'))
    .option('--json', 'print results.json instead of the report')
    .action(async (flags: { articles: string; seed: string; out: string; json?: boolean }) => {
      const out = await evaluateTampered({
        base: getConfig(),
        sharedData: sharedDataDir(),
        articles: Math.max(1, Number(flags.articles) || 20),
        seed: Number(flags.seed),
        outDir: path.resolve(flags.out),
      });
      if (flags.json) return printJson(out.score);
      process.stdout.write(out.text + '\n');
    });
}
