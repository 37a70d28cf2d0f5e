/**
 * The CI check of the evaluation numbers: the fixed SciFact subset (40 dev claims, their cited
 * abstracts and 200 distractors) through the whole path — import, index (real USE-lite + FAISS),
 * every run through search() — must reproduce eval/regressions/scifact-ci-subset.*.json to four
 * decimals (runs with dense vectors within `toleranceFor(run)`, as the kernels' rounding varies by CPU). A change that moves a number fails here until the regression file moves with it
 * (`quin eval regress --subset --update`, committed with the change).
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../lib/config';
import { SHARED_MISSING, sharedData } from '../testing/shared-data';
import { tempDir } from '../testing/db';
import { compareMetrics, loadRegressions, runRegressions, type RegressionFile } from './regression';

const scifact = sharedData('scifact', 'corpus.jsonl');
const root = tempDir('quin-regress-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('evaluation regressions', () => {
  it('every regression file is complete', () => {
    const files = loadRegressions();
    expect(files.length).toBeGreaterThanOrEqual(12);
    for (const { spec } of files) {
      expect(spec.queries, spec.name).toBeGreaterThan(0);
      expect(spec.expected['ndcg@10'], spec.name).not.toBeNull();
    }
  });

  it('holds BM25 to four decimals exactly and runs with dense vectors to their tolerance', () => {
    const spec = (run: string): RegressionFile => loadRegressions().find((f) => f.spec.run === run)!.spec;
    const shifted = (s: RegressionFile, d: number) =>
      Object.fromEntries(Object.entries(s.expected).map(([k, v]) => [k, v === null ? null : v + d])) as never;
    const check = (s: RegressionFile, d: number) => compareMetrics(s, shifted(s, d), s.corpus_stats, s.queries).ok;
    expect(check(spec('bm25'), 0)).toBe(true);
    expect(check(spec('bm25'), 0.0001)).toBe(false);
    expect(check(spec('dense'), 0.005)).toBe(true);
    expect(check(spec('dense'), -0.02)).toBe(false);
    expect(compareMetrics(spec('dense'), shifted(spec('dense'), 0), { documents: 1, snippets: 1 }, spec('dense').queries).ok).toBe(false);
  });

  it.skipIf(!scifact)(
    `reproduces the pinned numbers of the CI subset${scifact ? '' : ` (skipped: ${SHARED_MISSING})`}`,
    async () => {
      const base = loadConfig({
        env: { QUIN_CACHE_DIR: process.env.QUIN_CACHE_DIR ?? '' },
        configFile: null,
        overrides: { dataDir: root },
      });
      const checks = await runRegressions({ base, subsetOnly: true, workspaceRoot: root, progress: false });
      expect(checks.length).toBe(4);
      const failed = checks.filter((c) => !c.ok).flatMap((c) => c.lines.filter((l) => !l.startsWith('[OK]')));
      expect(failed, failed.join('\n')).toEqual([]);
    },
    900_000,
  );
});
