/**
 * `quin eval details` on a small fixed sample, end to end on the real corpora (../shared/data): the
 * held-out BBC and HuffPost sentences' claims, one detail changed each, through a real import, index,
 * search, reranker and verdict. The numbers depend on the models; what is checked is that the sample is
 * what the seed says, that every changed claim differs from its twin in the detail named, and that the
 * report counts every claim.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { tempDir } from '../../testing/db';
import { sharedDataDir } from '../../lib/paths';
import { detailSwapClaims, evaluateDetails } from './evaluate';

const shared = sharedDataDir();
const have = fs.existsSync(path.join(shared, 'news', 'bbc')) && fs.existsSync(path.join(shared, 'news', 'huffpost'));
if (!have) console.warn(`[skip] the detail-swap evaluation needs ../shared/data/news (not at ${shared})`);
const root = tempDir('quin-details-eval-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe.skipIf(!have)('quin eval details on a small fixed sample', () => {
  it('claims from held-out sentences, each changed in the one detail it names', async () => {
    const a = await detailSwapClaims(shared, 12);
    const b = await detailSwapClaims(shared, 12);
    expect(b).toEqual(a);
    expect(a).toHaveLength(24);
    const changed = a.filter((c) => c.label === 'REFUTED');
    expect(new Set(changed.map((c) => c.kind)).size).toBeGreaterThanOrEqual(5);
    for (const c of changed) {
      const twin = a.find((x) => x.sentence === c.sentence && x.label === 'SUPPORTED')!;
      expect(c.claim).not.toBe(twin.claim);
      if (c.kind !== 'negation' && c.kind !== 'roles') {
        expect(twin.claim).toContain(c.from);
        expect(c.claim).toContain(c.to);
      }
    }
  });

  it('checks every claim through the product and reports each kind', async () => {
    const out = await evaluateDetails({
      base: { ...loadConfig(), cacheDir: path.join(root, 'cache') },
      sharedData: shared,
      sentences: 12,
      outDir: path.join(root, 'out'),
      workspaceRoot: path.join(root, 'ws'),
      progress: false,
    });
    expect(out.score.claims).toBe(24);
    expect(out.score.unchanged.n).toBe(12);
    expect(Object.values(out.score.by_kind).reduce((s, k) => s + k.n, 0)).toBe(24);
    expect(out.text).toMatch(/changed claims: REFUTED \d/);
    const saved = JSON.parse(fs.readFileSync(path.join(root, 'out', 'results.json'), 'utf8'));
    expect(saved.claims).toBe(24);
    expect(
      fs
        .readFileSync(path.join(root, 'out', 'predictions.jsonl'), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(24);
  }, 900_000);
});
