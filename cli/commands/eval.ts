import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { evaluate, evaluateNews, evidenceWeights, runRegressions, tuneFusion, type DatasetName } from '../../eval';
import type { TuneReport } from '../../eval/tune-report';
import { createEncoder } from '../../indexer';
import { staticModelDir } from '../../indexer/encoders';
import { FUSION_FILE } from '../../indexer/encoders/static/encoder';
import { getConfig, type Config } from '../../lib/config';
import { createError } from '../../lib/errors';
import { sharedDataDir } from '../../lib/paths';
import { evaluateStance, formatStance, readPairs } from '../../eval/stance';
import { DEFAULT_SEED as DEFAULT_SWAP_SEED, evaluateDetails } from '../../eval/swap/evaluate';
import { printJson } from '../output';
import { registerTampered } from './eval-tampered';

interface EvalFlags {
  claims: string;
  corpus?: string;
  out?: string;
  split: string;
  limit?: string;
  runs?: string;
  sections: boolean;
  json?: boolean;
  backend: string;
}

/** The cross-validated weight beside the static table it was fitted for (indexer/encoders/static: fusion.json). */
async function writeFusion(report: TuneReport, config: Config): Promise<string> {
  if (!report.cv) throw createError('INVALID_INPUT', '--write needs the cross-validation (--folds ≥ 2)');
  if (config.encoder !== 'static')
    throw createError(
      'INVALID_INPUT',
      `--write stores the weight with a static table; QUIN_ENCODER=${config.encoder} has no model folder of ours`,
    );
  const encoder = await createEncoder(config);
  if (encoder.id !== report.encoder)
    throw createError('CONFLICT', `the evaluated encoder ${report.encoder} is not the configured table ${encoder.id}`);
  const file = path.join(staticModelDir(config), FUSION_FILE);
  const { k, depth, folds, heldOut, chosen, rule, dev } = report.cv;
  const fusion = {
    bm25Weight: chosen,
    fusion: 'score',
    normalization: 'minmax',
    encoder: report.encoder,
    fitted: {
      on: `${report.train} claims of ${report.fitOn ?? 'the train split'} (eval/splits.ts), ${k}-fold cross-validation at depth ${depth}`,
      command: `npx quin eval tune-fusion --claims ../shared/data/scifact/claims_train.jsonl${report.fitOn?.includes('Climate') ? ' --climate ../shared/data/climate-fever/claims.jsonl' : ''} --folds ${k} --write`,
      folds: folds.map((f) => ({ chosen: f.chosen, heldOutNdcg10: round4(f.heldOut), claims: f.queries })),
      heldOutNdcg10: { mean: round4(heldOut.mean), sd: round4(heldOut.sd) },
      rule,
      devNdcg10: Object.fromEntries(Object.entries(dev).map(([d, v]) => [d, v === null ? null : round4(v)])),
    },
  };
  fs.writeFileSync(file, JSON.stringify(fusion, null, 2) + '\n');
  return file;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

function split(v: string): 'train' | 'dev' | 'all' {
  if (v !== 'train' && v !== 'dev' && v !== 'all') throw createError('INVALID_INPUT', `--split must be train, dev or all (got "${v}")`);
  return v;
}

function limit(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw createError('INVALID_INPUT', `--limit must be a whole number ≥ 1 (got "${v}")`);
  return n;
}

function backend(v: string): 'embedded' | 'elasticsearch' {
  if (v !== 'embedded' && v !== 'elasticsearch')
    throw createError('INVALID_INPUT', `--backend must be embedded or elasticsearch (got "${v}")`);
  return v;
}

function datasetCommand(program: Command, dataset: DatasetName, description: string): void {
  const cmd = program
    .command(dataset)
    .description(description)
    .requiredOption('--claims <file>', 'claims file (JSON lines)')
    .option('--out <dir>', 'where results.json and run-info.json go', path.join('out', 'eval', dataset))
    .option('--split <part>', 'train, dev or all (our split, eval/splits.ts)', 'all')
    .option('--limit <n>', 'only the first n claims (after the split)')
    .option('--runs <names>', 'comma-separated runs (default: the default runs)')
    .option('--no-sections', 'skip result sections such as verdicts')
    .option('--json', 'print results.json instead of the table')
    .option(
      '--backend <name>',
      'where BM25 runs: embedded (SQLite FTS5) or elasticsearch (ELASTICSEARCH_URL: a throwaway index of its own, removed after)',
      'embedded',
    );
  if (dataset === 'scifact') cmd.option('--corpus <file>', 'SciFact corpus.jsonl (default ../shared/data/scifact/corpus.jsonl)');
  cmd.action(async (flags: EvalFlags) => {
    const base = getConfig();
    const out = await evaluate({
      dataset,
      claimsFile: path.resolve(flags.claims),
      corpusFile: dataset === 'scifact' ? path.resolve(flags.corpus ?? path.join(sharedDataDir(), 'scifact', 'corpus.jsonl')) : undefined,
      split: split(flags.split),
      limit: limit(flags.limit),
      runs: flags.runs
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      outDir: flags.out ? path.resolve(flags.out) : undefined,
      base,
      sections: flags.sections,
      backend: backend(flags.backend),
      command: `quin eval ${process.argv.slice(process.argv.indexOf('eval') + 1).join(' ')}`,
    });
    if (flags.json) return printJson(out.results);
    process.stdout.write(out.table + '\n');
    for (const [name, value] of Object.entries(out.results)) {
      if (!['dataset', 'queries', 'runs', 'backend'].includes(name)) process.stdout.write(`${name}: ${JSON.stringify(value)}\n`);
    }
    if (out.resultsFile) process.stdout.write(`results: ${out.resultsFile}\n`);
  });
}

export function register(program: Command): void {
  const evalCmd = program.command('eval').description('evaluate retrieval and verdicts on SciFact, Climate-FEVER or our news claims');
  datasetCommand(
    evalCmd,
    'scifact',
    'SciFact claims against the SciFact abstracts (doc-level nDCG@10, Recall@100/1000, MRR@10, evidence hit@10)',
  );
  datasetCommand(evalCmd, 'climate-fever', 'Climate-FEVER claims against every evidence sentence of the file');

  evalCmd
    .command('news')
    .description(
      'news claims (eval/news/claims.jsonl) against the BBC, HuffPost and Reuters corpora: verdict confusion matrix, macro-F1, committed precision, true claims called false, risk–coverage, hit@10',
    )
    .option('--claims <file>', 'news claims file (JSON lines)', path.join('eval', 'news', 'claims.jsonl'))
    .option('--out <dir>', 'where results.json, run-info.json and predictions.jsonl go', path.join('out', 'eval', 'news'))
    .option('--limit <n>', 'only the first n claims')
    .option('--reuters-distractors <n>', 'Reuters stories imported besides those the claims name', '2000')
    .option('--json', 'print results.json instead of the report')
    .action(async (flags: { claims: string; out?: string; limit?: string; reutersDistractors: string; json?: boolean }) => {
      const distractors = Number(flags.reutersDistractors);
      if (!Number.isInteger(distractors) || distractors < 0)
        throw createError('INVALID_INPUT', `--reuters-distractors must be a whole number ≥ 0 (got "${flags.reutersDistractors}")`);
      const out = await evaluateNews({
        claimsFile: path.resolve(flags.claims),
        limit: limit(flags.limit),
        outDir: flags.out ? path.resolve(flags.out) : undefined,
        base: getConfig(),
        sharedData: sharedDataDir(),
        reutersDistractors: distractors,
        command: `quin eval ${process.argv.slice(process.argv.indexOf('eval') + 1).join(' ')}`,
      });
      if (flags.json) return printJson(out.results);
      process.stdout.write(out.text + '\n');
      if (out.resultsFile) process.stdout.write(`results: ${out.resultsFile}\n`);
    });

  evalCmd
    .command('details')
    .description(
      'one changed detail per claim (a name, place, amount, ordinal, score, date, direction, polarity or roles), from sentences of held-out BBC and HuffPost articles, checked against the original coverage: REFUTED recall and false → SUPPORTED per kind, SUPPORTED recall of the unchanged claims, latency',
    )
    .option('--sentences <n>', 'sentences sampled (each gives an unchanged and a changed claim)', '150')
    .option('--seed <n>', 'sampling seed', String(DEFAULT_SWAP_SEED))
    .option('--out <dir>', 'where results.json and predictions.jsonl go', path.join('out', 'eval', 'details'))
    .option('--json', 'print results.json instead of the report')
    .action(async (flags: { sentences: string; seed: string; out: string; json?: boolean }) => {
      const out = await evaluateDetails({
        base: getConfig(),
        sharedData: sharedDataDir(),
        sentences: limit(flags.sentences) ?? 150,
        seed: Number(flags.seed),
        outDir: path.resolve(flags.out),
      });
      if (flags.json) return printJson(out.score);
      process.stdout.write(out.text + '\n');
    });

  registerTampered(evalCmd);

  evalCmd
    .command('stance')
    .description(
      "the verdict stage's per-sentence stance on labelled pairs: per set, accuracy, macro-F1, per-class precision/recall and the confusion matrix",
    )
    .requiredOption('--pairs <file>', 'JSON lines {"id", "set"?, "claim", "evidence", "label": SUPPORTS | REFUTES | NOT_ENOUGH_INFO}')
    .option('--json', 'print {"model", "sets": {"<set>": {"n", "accuracy", "macro_f1", …}}}')
    .action(async (flags: { pairs: string; json?: boolean }) => {
      const report = await evaluateStance(readPairs(path.resolve(flags.pairs)), getConfig());
      if (flags.json) return printJson(report);
      process.stdout.write(formatStance(report) + '\n');
    });

  evalCmd
    .command('tune-fusion')
    .description(
      'choose the fusion (RRF / score, weight, normalisation) on claims the encoder was not trained on, cross-validate the score-fusion weight, and report it on dev',
    )
    .requiredOption('--claims <file>', 'SciFact claims file')
    .option('--corpus <file>', 'SciFact corpus.jsonl (default ../shared/data/scifact/corpus.jsonl)')
    .option('--climate <file>', 'also score the Climate-FEVER claims of this file (the same parts of our split)')
    .option('--fit-on <part>', 'holdout (the part of the train split the shipped encoder never trained on) or train', 'holdout')
    .option('--step <w>', 'weight grid step', '0.05')
    .option('--depth <k>', 'snippets retrieved from each index', '4000')
    .option('--folds <k>', 'cross-validate the score-fusion weight over the fit claims in k folds (0: no)', '5')
    .option('--write', "write the cross-validated weight to the static encoder's model folder (fusion.json), where the product reads it")
    .option('--json', 'print every setting as JSON')
    .action(
      async (flags: {
        claims: string;
        corpus?: string;
        climate?: string;
        fitOn: string;
        step: string;
        depth: string;
        folds: string;
        write?: boolean;
        json?: boolean;
      }) => {
        if (flags.fitOn !== 'holdout' && flags.fitOn !== 'train')
          throw createError('INVALID_INPUT', `--fit-on must be holdout or train (got "${flags.fitOn}")`);
        const config = getConfig();
        const report = await tuneFusion({
          claimsFile: path.resolve(flags.claims),
          corpusFile: path.resolve(flags.corpus ?? path.join(sharedDataDir(), 'scifact', 'corpus.jsonl')),
          climateFile: flags.climate ? path.resolve(flags.climate) : undefined,
          fitOn: flags.fitOn,
          base: config,
          step: Number(flags.step),
          depth: Number(flags.depth),
          folds: Number(flags.folds),
        });
        if (flags.write) process.stderr.write(`wrote ${await writeFusion(report, config)}\n`);
        if (flags.json) return printJson(report);
        process.stdout.write(report.text + '\n');
      },
    );

  evalCmd
    .command('evidence-weights')
    .description('how often the top evidence sentence is a gold SciFact rationale, per weight of the embedding cosine against word overlap')
    .requiredOption('--claims <file>', 'SciFact claims file')
    .option('--corpus <file>', 'SciFact corpus.jsonl (default ../shared/data/scifact/corpus.jsonl)')
    .action(async (flags: { claims: string; corpus?: string }) => {
      const reports = await evidenceWeights({
        claimsFile: path.resolve(flags.claims),
        corpusFile: path.resolve(flags.corpus ?? path.join(sharedDataDir(), 'scifact', 'corpus.jsonl')),
        base: getConfig(),
      });
      for (const r of reports) {
        const cells = r.precisionAt1.map(({ weight, precision }) => `cosine weight ${weight}: ${precision.toFixed(4)}`);
        process.stdout.write(`${r.split} (${r.snippets} snippets holding a gold sentence): ${cells.join(' · ')}\n`);
      }
    });

  evalCmd
    .command('regress')
    .description('re-run the regression files in eval/regressions and print [OK]/[FAIL] per metric')
    .argument('[names...]', 'regression names (default: all)')
    .option('--subset', 'only the small fixed subsets (what CI checks)')
    .option('--update', 'rewrite the expected numbers from this run (commit them with the change that moved them)')
    .action(async (names: string[], flags: { subset?: boolean; update?: boolean }) => {
      const checks = await runRegressions({ base: getConfig(), names, subsetOnly: flags.subset, update: flags.update });
      for (const c of checks) process.stdout.write(c.lines.join('\n') + '\n');
      const failed = checks.filter((c) => !c.ok).length;
      process.stdout.write(`${checks.length - failed} passed, ${failed} failed${flags.update ? ' (expected numbers updated)' : ''}\n`);
      if (failed && !flags.update) process.exitCode = 1;
    });
}
