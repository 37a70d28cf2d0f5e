/**
 * verdict.json, the aggregation fitted for an NLI model: both forms parse, malformed ones are
 * refused, and the stage applies it only when it suits the judgements (a file fitted on the stance
 * head's probabilities does not apply without the head).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { closeLoadedModels } from '../../lib/models';
import { projectRoot } from '../../lib/paths';
import { parseFittedAggregation } from './fitted';
import { createVerdictStage } from './index';

const weights = [
  [0, 1, 0, 0, 0, 0, 0],
  [0, 0, 1, 0, 0, 0, 0],
  [1, 0, 0, 0, 0, 0, 0],
];
const thresholds = { minEvidence: 0.4, mixedRatio: 1.01, refuteWeight: 1.25, pooling: 'max' };

afterAll(() => closeLoadedModels());

describe('fitted verdict aggregation', () => {
  it('reads a learned aggregator or thresholds, with the evidence shape and the stance-head mark', () => {
    expect(parseFittedAggregation({ weights, depth: 3, sentences: 2 })).toMatchObject({
      learned: { weights },
      thresholds: null,
      depth: 3,
      sentences: 2,
      stanceHead: false,
    });
    expect(parseFittedAggregation({ thresholds, depth: 2, sentences: 2, stance_head: true })).toEqual({
      learned: null,
      thresholds,
      depth: 2,
      sentences: 2,
      stanceHead: true,
    });
  });

  it('refuses what it cannot apply, saying which field', () => {
    expect(() => parseFittedAggregation({ thresholds: { ...thresholds, pooling: 'median' } })).toThrow(/pooling/);
    expect(() => parseFittedAggregation({ thresholds: { ...thresholds, minEvidence: 2 } })).toThrow(/minEvidence/);
    expect(() => parseFittedAggregation({ thresholds, weights })).toThrow(/not both/);
    expect(() => parseFittedAggregation({ thresholds, stance_head: 'yes' })).toThrow(/stance_head/);
    expect(() => parseFittedAggregation({ thresholds, depth: 0 })).toThrow(/depth/);
  });

  it('the stage uses the file where it suits the judgements, else the configured thresholds', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-fitted-'));
    const tiny = path.join(projectRoot(), 'lib', 'models', 'fixtures', 'tiny-nli');
    fs.cpSync(tiny, dir, { recursive: true });
    const config = (env: Record<string, string>) => loadConfig({ env: { QUIN_NLI_MODEL: dir, ...env }, configFile: null });
    const write = (doc: unknown) => fs.writeFileSync(path.join(dir, 'verdict.json'), JSON.stringify(doc));
    try {
      write({ thresholds, depth: 2, sentences: 1 });
      expect((await createVerdictStage(config({})))!.settings).toMatchObject({ ...thresholds, depth: 2, sentences: 1, learned: null });
      // Fitted on stance-head probabilities, in a folder without a head: the configured rule.
      write({ thresholds, depth: 2, sentences: 1, stance_head: true });
      expect((await createVerdictStage(config({ QUIN_VERDICT_MIN_EVIDENCE: '0.3', QUIN_VERDICT_DEPTH: '4' })))!.settings).toMatchObject({
        minEvidence: 0.3,
        depth: 4,
      });
      write({ weights, depth: 3 });
      expect((await createVerdictStage(config({})))!.settings).toMatchObject({ learned: { weights }, depth: 3 });
      expect((await createVerdictStage(config({ QUIN_VERDICT_LEARNED: 'false', QUIN_VERDICT_DEPTH: '4' })))!.settings).toMatchObject({
        learned: null,
        depth: 4,
      });
      write({ thresholds: { ...thresholds, pooling: 'median' } });
      await expect(createVerdictStage(config({}))).rejects.toThrow(/verdict\.json.*pooling/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ours: quin-nli with its stance head reads the thresholds fitted for them; without the head, the configured ones', async () => {
    const doc = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'models', 'quin-nli', 'verdict.json'), 'utf8'));
    const withHead = (await createVerdictStage(loadConfig({ env: { QUIN_NLI_MODEL: 'quin-nli' }, configFile: null })))!;
    expect(withHead.id).toMatch(/\+stance-head$/);
    expect(withHead.settings).toMatchObject({ ...doc.thresholds, depth: doc.depth, sentences: doc.sentences });
    const without = (await createVerdictStage(
      loadConfig({ env: { QUIN_NLI_MODEL: 'quin-nli', QUIN_NLI_STANCE_HEAD: 'false' }, configFile: null }),
    ))!;
    expect(without.id).not.toMatch(/stance-head/);
    expect(without.settings.minEvidence).toBe(loadConfig({ env: {}, configFile: null }).verdictMinEvidence);
    // Another dense encoder cannot feed a head trained on USE-lite vectors.
    const onnx = (await createVerdictStage(loadConfig({ env: { QUIN_NLI_MODEL: 'quin-nli', QUIN_ENCODER: 'onnx' }, configFile: null })))!;
    expect(onnx.id).not.toMatch(/stance-head/);
    expect(onnx.settings.depth).toBe(loadConfig({ env: {}, configFile: null }).verdictDepth);
  });
});
