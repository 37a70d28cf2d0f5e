/**
 * Regression files (after Anserini): one JSON file per corpus × run in eval/regressions/, pinning the
 * command, the corpus statistics, the query count and the expected metrics to four decimals on our
 * own development split. The runner re-runs each group of files that share a corpus and query set,
 * prints [OK] / [FAIL] per file and metric, and (with --update) rewrites the expected numbers from
 * the measured ones, so that numbers change only in the commit that moves them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../lib/config';
import { createError } from '../lib/errors';
import { projectRoot, sharedDataDir } from '../lib/paths';
import { evaluate } from './evaluate';
import { METRIC_KEYS, type RunMetrics } from './harness';
import { round4 } from './metrics';

const Metrics = z.object(
  Object.fromEntries(METRIC_KEYS.map((k) => [k, z.number().nullable()])) as Record<
    (typeof METRIC_KEYS)[number],
    z.ZodNullable<z.ZodNumber>
  >,
);

export const RegressionFile = z.object({
  name: z.string().min(1),
  dataset: z.enum(['scifact', 'climate-fever']),
  run: z.string().min(1),
  command: z.string().min(1),
  /** Paths relative to the shared data folder. */
  claims: z.string().min(1),
  corpus: z.string().nullable(),
  split: z.enum(['train', 'dev', 'all']),
  subset: z
    .object({ claims: z.number().int().positive(), distractors: z.number().int().min(0), split: z.enum(['train', 'dev', 'all']) })
    .nullable(),
  encoder: z.string().min(1),
  corpus_stats: z.object({ documents: z.number().int(), snippets: z.number().int() }),
  queries: z.number().int(),
  expected: Metrics,
});
export type RegressionFile = z.infer<typeof RegressionFile>;

export function regressionsDir(): string {
  return path.join(projectRoot(), 'eval', 'regressions');
}

export function loadRegressions(dir = regressionsDir()): { file: string; spec: RegressionFile }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      const parsed = RegressionFile.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
      if (!parsed.success)
        throw createError('INVALID_INPUT', `${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      return { file, spec: parsed.data };
    });
}

/** Files that can share one evaluation (same corpus, queries and encoder). */
export function groupKey(s: RegressionFile): string {
  return JSON.stringify([s.dataset, s.claims, s.corpus, s.split, s.subset, s.encoder]);
}

export interface Check {
  name: string;
  ok: boolean;
  lines: string[];
  measured: RunMetrics | null;
}

/**
 * How far a measured metric may be from the pinned one. BM25 is exact double arithmetic in SQLite:
 * four decimals, exactly. Runs that read dense vectors go through FAISS's BLAS kernels and
 * TensorFlow.js, whose rounding depends on the CPU's instruction set, so on another machine a near
 * tie between two documents can flip; one flip among the CI subset's 40 claims moves nDCG@10 by up to
 * ~0.009. A real regression moves more than that.
 */
export function toleranceFor(run: string): number {
  return run === 'bm25' ? 0 : 0.01;
}

/** Agreement at four decimals, within the run's tolerance. */
export function compareMetrics(
  spec: RegressionFile,
  measured: RunMetrics,
  stats: { documents: number; snippets: number },
  queries: number,
): Check {
  const lines: string[] = [];
  let ok = true;
  const line = (pass: boolean, what: string) => {
    ok &&= pass;
    lines.push(`${pass ? '[OK]  ' : '[FAIL]'} ${spec.name}: ${what}`);
  };
  line(
    stats.documents === spec.corpus_stats.documents && stats.snippets === spec.corpus_stats.snippets,
    `corpus ${stats.documents} documents / ${stats.snippets} snippets (expected ${spec.corpus_stats.documents} / ${spec.corpus_stats.snippets})`,
  );
  line(queries === spec.queries, `${queries} queries (expected ${spec.queries})`);
  const tol = toleranceFor(spec.run);
  for (const k of METRIC_KEYS) {
    const got = round4(measured[k]);
    const want = spec.expected[k];
    const pass = got === want || (got !== null && want !== null && Math.abs(got - want) <= tol + 1e-9);
    line(pass, `${k} ${got === null ? '–' : got.toFixed(4)} (expected ${want === null ? '–' : want.toFixed(4)}${tol ? ` ± ${tol}` : ''})`);
  }
  return { name: spec.name, ok, lines, measured };
}

export interface RegressOptions {
  base: Config;
  names?: string[];
  /** Only the files that evaluate a subset (what CI runs). */
  subsetOnly?: boolean;
  update?: boolean;
  workspaceRoot?: string;
  progress?: boolean;
  dir?: string;
}

export async function runRegressions(opts: RegressOptions): Promise<Check[]> {
  let files = loadRegressions(opts.dir);
  if (opts.names?.length) files = files.filter((f) => opts.names!.includes(f.spec.name));
  if (opts.subsetOnly) files = files.filter((f) => f.spec.subset !== null);
  const groups = new Map<string, typeof files>();
  for (const f of files) groups.set(groupKey(f.spec), [...(groups.get(groupKey(f.spec)) ?? []), f]);
  const checks: Check[] = [];
  for (const group of groups.values()) {
    const s = group[0]!.spec;
    const shared = sharedDataDir();
    const out = await evaluate({
      dataset: s.dataset,
      claimsFile: path.join(shared, s.claims),
      corpusFile: s.corpus ? path.join(shared, s.corpus) : undefined,
      split: s.split,
      subset: s.subset ?? undefined,
      runs: group.map((f) => f.spec.run),
      base: opts.base,
      workspaceRoot: opts.workspaceRoot,
      sections: false,
      progress: opts.progress,
    });
    for (const f of group) {
      const run = out.runs.find((r) => r.run === f.spec.run)!;
      if (run.skipped) {
        checks.push({ name: f.spec.name, ok: false, lines: [`[FAIL] ${f.spec.name}: run skipped (${run.skipped})`], measured: null });
        continue;
      }
      // --update re-pins a file to the configured encoder (a change of the default encoder moves them).
      if (out.info.encoder !== f.spec.encoder && f.spec.run !== 'bm25' && !opts.update) {
        checks.push({
          name: f.spec.name,
          ok: true,
          lines: [`[SKIP] ${f.spec.name}: pinned for encoder ${f.spec.encoder}, configured ${String(out.info.encoder)}`],
          measured: null,
        });
        continue;
      }
      const stats = out.info.corpus as { documents: number; snippets: number };
      const check = compareMetrics(f.spec, run.metrics, stats, out.results.queries);
      checks.push(check);
      if (opts.update) {
        const updated: RegressionFile = {
          ...f.spec,
          encoder: String(out.info.encoder),
          corpus_stats: { documents: stats.documents, snippets: stats.snippets },
          queries: out.results.queries,
        };
        updated.expected = Object.fromEntries(METRIC_KEYS.map((k) => [k, round4(run.metrics[k])])) as RegressionFile['expected'];
        fs.writeFileSync(f.file, JSON.stringify(updated, null, 2) + '\n');
      }
    }
  }
  return checks;
}
