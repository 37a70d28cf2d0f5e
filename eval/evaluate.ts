/**
 * `quin eval <dataset>` as a library call (the CLI, the regression runner and the tests use it):
 * queries from the claims file → scratch workspace (import + index) → every run through search() →
 * sections (e.g. verdicts) → results.json, run-info.json and a table.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../lib/config';
import { describeError } from '../lib/errors';
import { createProgress } from '../lib/progress';
import { loadClimateFever, loadScifactClaims, selectQueries, writeClimateCorpus, type DatasetName, type EvalQuery } from './datasets';
import { EVAL_RETRIEVE_K, memoEncoder, runQueries, type RunOutcome } from './harness';
import { buildResults, formatTable, writeResults, type EvalResults } from './report';
import { EVAL_SECTIONS, findRuns } from './runs';
import type { Split } from './splits';
import { scifactSubset, type SubsetSpec } from './subset';
import { fileSha256, openWorkspace, type EvalBackend } from './workspace';
import { DEFAULT_WINDOW } from '../crawler';

export interface EvaluateOptions {
  dataset: DatasetName;
  claimsFile: string;
  /** SciFact corpus (Climate-FEVER's corpus is made from the claims file). */
  corpusFile?: string;
  split: Split | 'all';
  limit?: number;
  runs?: string[];
  outDir?: string;
  base: Config;
  subset?: SubsetSpec;
  workspaceRoot?: string;
  /** Run the result sections (verdicts); off in the retrieval regression checks. */
  sections?: boolean;
  progress?: boolean;
  /** The command line recorded in run-info.json. */
  command?: string;
  /** BM25 in the workspace's SQLite FTS5 (default) or in a throwaway index at ELASTICSEARCH_URL. */
  backend?: EvalBackend;
}

export interface EvaluateOutcome {
  results: EvalResults;
  runs: RunOutcome[];
  info: Record<string, unknown>;
  table: string;
  resultsFile?: string;
}

function prepareCorpus(
  opts: EvaluateOptions,
  scratch: string,
): { queries: EvalQuery[]; corpusFile: string; format: 'scifact' | 'jsonl'; window?: { size: number; stride: number; minChars: number } } {
  if (opts.dataset === 'climate-fever') {
    const { queries, claims } = loadClimateFever(opts.claimsFile);
    const corpusFile = path.join(scratch, 'corpora', `climate-fever-${fileSha256(opts.claimsFile).slice(0, 12)}.jsonl`);
    writeClimateCorpus(claims, corpusFile);
    // One evidence sentence per document: keep every one, however short.
    return {
      queries,
      corpusFile,
      format: 'jsonl',
      window: { ...DEFAULT_WINDOW, minChars: 1 },
    };
  }
  const corpusFile = opts.corpusFile!;
  if (opts.subset) {
    const sub = scifactSubset(opts.claimsFile, corpusFile, opts.subset, path.join(scratch, 'corpora'));
    return { queries: sub.queries, corpusFile: sub.corpusFile, format: 'scifact' };
  }
  return { queries: loadScifactClaims(opts.claimsFile), corpusFile, format: 'scifact' };
}

export async function evaluate(opts: EvaluateOptions): Promise<EvaluateOutcome> {
  const runs = findRuns(opts.runs);
  const scratch = opts.workspaceRoot ?? path.join(opts.base.cacheDir, 'eval');
  const prepared = prepareCorpus(opts, scratch);
  const queries = selectQueries(prepared.queries, opts.split, opts.limit);
  const ws = await openWorkspace({
    dataset: opts.subset ? `${opts.dataset}-subset` : opts.dataset,
    corpora: [{ format: prepared.format, path: prepared.corpusFile }],
    window: prepared.window,
    base: opts.base,
    root: scratch,
    progress: opts.progress,
    backend: opts.backend,
  });
  try {
    const ctx = { ...ws.ctx, indexes: { ...ws.indexes, encoder: memoEncoder(ws.indexes.encoder) } };
    const outcomes: RunOutcome[] = [];
    for (const run of runs) {
      const progress =
        opts.progress === false
          ? undefined
          : createProgress({ label: `eval ${opts.dataset} ${run.name}`, total: queries.length, unit: 'queries' });
      const outcome = await runQueries(run, queries, ctx, { config: ws.config, docIdOf: ws.docIdOf, onQuery: () => progress?.tick() });
      progress?.done(outcome.skipped ? `skipped: ${outcome.skipped}` : undefined);
      outcomes.push(outcome);
    }
    const sections: Record<string, unknown> = {};
    if (opts.sections !== false) {
      for (const section of EVAL_SECTIONS.filter((s) => s.datasets.includes(opts.dataset))) {
        try {
          sections[section.name] = await section.run({
            dataset: opts.dataset,
            queries,
            ctx,
            config: ws.config,
            corpusFile: prepared.corpusFile,
            claimsFile: opts.claimsFile,
            docIdOf: ws.docIdOf,
          });
        } catch (e) {
          sections[section.name] = { error: describeError(e) };
        }
      }
    }
    const backend: EvalBackend = ws.indexes.bm25.backend === 'elasticsearch' ? 'elasticsearch' : 'embedded';
    const { dataset, queries: n, ...rest } = buildResults(opts.dataset, queries.length, outcomes, sections);
    const results: EvalResults = { dataset, queries: n, backend, ...rest };
    const info = {
      command: opts.command ?? null,
      dataset: opts.dataset,
      claims: {
        file: opts.claimsFile,
        sha256: fileSha256(opts.claimsFile),
        split: opts.split,
        limit: opts.limit ?? null,
        subset: opts.subset ?? null,
      },
      queryIds: crypto
        .createHash('sha256')
        .update(queries.map((q) => q.id).join(','))
        .digest('hex')
        .slice(0, 16),
      corpus: { file: prepared.corpusFile, sha256: ws.stats.corpusSha256, documents: ws.stats.documents, snippets: ws.stats.snippets },
      workspace: ws.dir,
      encoder: ws.indexes.encoder.id,
      backend,
      bm25: ws.indexes.bm25.backend,
      dense: ws.config.elasticsearchUrl && ws.config.elasticsearchDense ? 'elasticsearch (kNN)' : 'faiss',
      elasticsearch: ws.config.elasticsearchUrl ? { index: ws.config.elasticsearchIndex, removedAfter: true } : null,
      ranking: {
        retrieveK: EVAL_RETRIEVE_K,
        bm25Weight: ws.ctx.options.bm25Weight,
        rrfK: ws.ctx.options.rrfK,
        halfLifeDays: null,
        perArticle: 1,
      },
      runs: Object.fromEntries(
        outcomes.map((o) => [
          o.run,
          { seconds: o.seconds, skipped: o.skipped ?? null, failedQueries: o.perQuery.filter((q) => q.error).length },
        ]),
      ),
      machine: {
        cpus: os.cpus().length,
        cpu: os.cpus()[0]?.model ?? null,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
      },
      date: new Date().toISOString(),
    };
    const table = formatTable(results, outcomes);
    const resultsFile = opts.outDir ? writeResults(opts.outDir, results, info) : undefined;
    return { results, runs: outcomes, info, table, resultsFile };
  } finally {
    await ws.close();
  }
}
