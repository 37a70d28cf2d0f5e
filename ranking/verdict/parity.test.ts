/**
 * The fitted files are computed in Python (training/stance/train_verdict.py) and served in
 * TypeScript: these fixtures, written by the same --write run as the models, hold inputs and the
 * Python side's outputs, so any drift between the two implementations fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify, StanceModelFile } from './align/classifier';
import { claimFeatures, type JudgedItem } from './decide';

const read = (...p: string[]) => JSON.parse(fs.readFileSync(path.join(__dirname, ...p), 'utf8'));

describe('Python ↔ TypeScript parity of the fitted verdict files', () => {
  it('claimFeatures gives the features the aggregator was fitted on', () => {
    const cases = read('fixtures', 'claim-features.json') as { items: JudgedItem[]; features: number[] }[];
    expect(cases.length).toBeGreaterThanOrEqual(10);
    for (const c of cases) {
      const got = claimFeatures(c.items);
      got.forEach((v, i) => expect(v).toBeCloseTo(c.features[i]!, 9));
    }
  });

  it('classify gives the shipped stance model’s probabilities', () => {
    const model = StanceModelFile.parse(read('..', '..', 'models', 'quin-nli', 'stance.json'));
    const rows = read('fixtures', 'stance-parity.json') as { x: number[]; p: number[] }[];
    expect(rows.length).toBe(40);
    for (const r of rows) {
      const p = classify(model, r.x);
      expect(p.supports).toBeCloseTo(r.p[0]!, 5);
      expect(p.refutes).toBeCloseTo(r.p[1]!, 5);
      expect(p.neutral).toBeCloseTo(r.p[2]!, 5);
    }
  });
});
