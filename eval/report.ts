/**
 * The evaluation's outputs: `<out>/results.json` shaped exactly
 * {"dataset", "queries", "runs": {"<run>": {"ndcg@10", "recall@100", "recall@1000", "mrr@10",
 * "evidence_hit@10"}}} (plus one key per EvalSection, e.g. "verdict", and for `quin eval scifact |
 * climate-fever` the "backend" BM25 ran on: "embedded" or "elasticsearch"), a table for people, and
 * `<out>/run-info.json` with what produced the numbers (command, corpus, split, encoder, timings).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { RunMetrics, RunOutcome } from './harness';
import { METRIC_KEYS } from './harness';
import { round4 } from './metrics';

export interface EvalResults {
  dataset: string;
  queries: number;
  runs: Record<string, RunMetrics>;
  [section: string]: unknown;
}

export function buildResults(
  dataset: string,
  queries: number,
  runs: readonly RunOutcome[],
  sections: Record<string, unknown> = {},
): EvalResults {
  const out: EvalResults = { dataset, queries, runs: {} };
  for (const r of runs) {
    if (r.skipped) continue;
    out.runs[r.run] = Object.fromEntries(METRIC_KEYS.map((k) => [k, round4(r.metrics[k])])) as RunMetrics;
  }
  return { ...out, ...sections };
}

export function formatTable(results: EvalResults, runs: readonly RunOutcome[]): string {
  const headers = ['run', ...METRIC_KEYS, 'seconds'];
  const rows = runs.map((r) =>
    r.skipped
      ? [r.run, `skipped: ${r.skipped}`]
      : [r.run, ...METRIC_KEYS.map((k) => fmt(results.runs[r.run]?.[k] ?? null)), r.seconds.toFixed(1)],
  );
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => (i < row.length ? row[i]!.length : 0))));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const backend = typeof results.backend === 'string' ? ` (BM25: ${results.backend})` : '';
  return [
    `${results.dataset}: ${results.queries} queries${backend}`,
    line(headers),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
  ].join('\n');
}

function fmt(x: number | null): string {
  return x === null ? '–' : x.toFixed(4);
}

export function writeResults(outDir: string, results: EvalResults, info: Record<string, unknown>): string {
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, 'results.json');
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  fs.writeFileSync(path.join(outDir, 'run-info.json'), JSON.stringify(info, null, 2) + '\n');
  return file;
}
