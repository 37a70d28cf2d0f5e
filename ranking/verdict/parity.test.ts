/**
 * The verdict's fitted files are computed in Python (training/stance/train_verdict.py) and served in
 * TypeScript: these fixtures, written by the same --write run as the files, hold inputs and the
 * Python side's outputs, so any drift between the two implementations — the claim features, which
 * sentences are judged, the commit rule — fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAggregator, claimFeatures, decide, AggregatorFile, type JudgedItem, type StanceProbs } from './decide';
import type { Comparison } from './details/compare';
import { readPair, READING_FEATURES } from './judge';
import { pickEvidence } from './stage';

const read = (...p: string[]) => JSON.parse(fs.readFileSync(path.join(__dirname, ...p), 'utf8'));
const verdictJson = () =>
  checkAggregator(AggregatorFile.parse(read('..', '..', 'models', 'quin-nli', 'verdict.json')), 'verdict.json', READING_FEATURES);
const haveReading = fs.existsSync(path.join(__dirname, 'fixtures', 'reading-parity.json'));

describe('Python ↔ TypeScript parity of the fitted verdict files', () => {
  it.skipIf(!haveReading)('readPair reads each sentence as the fitted reading did, with the shipped verdict.json', () => {
    const { reading } = verdictJson();
    const cases = read('fixtures', 'reading-parity.json') as {
      model: StanceProbs;
      values: Comparison['values'];
      contradicted: boolean;
      read: StanceProbs;
    }[];
    expect(cases.length).toBeGreaterThanOrEqual(10);
    for (const c of cases) {
      const got = readPair(c.model, c.values, c.contradicted, reading);
      for (const k of ['supports', 'refutes', 'neutral'] as const) expect(got[k]).toBeCloseTo(c.read[k], 6);
    }
  });

  it('claimFeatures gives the features the aggregator was fitted on', () => {
    const cases = read('fixtures', 'claim-features.json') as { items: JudgedItem[]; features: number[] }[];
    expect(cases.length).toBeGreaterThanOrEqual(10);
    for (const c of cases) {
      const got = claimFeatures(c.items);
      got.forEach((v, i) => expect(v).toBeCloseTo(c.features[i]!, 9));
    }
  });

  it('pickEvidence judges the sentences the aggregator was fitted on', () => {
    const cases = read('fixtures', 'pick-parity.json') as {
      items: { rank: number; relevance: number }[];
      probs: StanceProbs[];
      n: number;
      picked: number[];
    }[];
    expect(cases.length).toBeGreaterThanOrEqual(10);
    for (const c of cases) expect(pickEvidence(c.items, c.probs, c.n)).toEqual(c.picked);
  });

  it('decide gives the label the Python rule gave, with the shipped verdict.json', () => {
    const agg = verdictJson();
    const cases = read('fixtures', 'decide-parity.json') as { items: JudgedItem[]; label: string }[];
    expect(cases.length).toBeGreaterThanOrEqual(10);
    const settings = {
      commit: agg.commit,
      commitRefuted: agg.commit_refuted,
      commitRefutedDetail: agg.commit_refuted_detail,
      mixed: agg.mixed,
    };
    for (const c of cases) expect(decide(c.items, agg, settings).label).toBe(c.label);
  });
});
