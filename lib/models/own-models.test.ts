/**
 * Our own trained models (models/quin-*) are ordinary Hugging Face ONNX folders: they load through
 * the same runtime as a downloaded model, in their roles, and behave sensibly on clear cases.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../paths';
import { CrossEncoder } from './cross-encoder';
import { readModelFolder } from './folder';
import { NliClassifier } from './nli';

const dir = (name: string) => path.join(projectRoot(), 'models', name);
const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const m of opened) await m.close();
});

describe('models/quin-reranker', () => {
  it('is a standard cross-encoder folder and ranks a matching passage above an unrelated one', async () => {
    expect(readModelFolder(dir('quin-reranker')).labels).toEqual(['LABEL_0']);
    const ce = await CrossEncoder.load(dir('quin-reranker'));
    opened.push(ce);
    const [match, other] = await ce.score('Vitamin D supplementation reduces the risk of bone fractures.', [
      'Vitamin D and fracture risk. In this trial, daily vitamin D supplements lowered the rate of hip fractures in older women.',
      'Quarterly earnings. The company reported higher revenue from its cloud business and announced a share buyback.',
    ]);
    expect(match).toBeGreaterThan(other!);
  });
});

describe('models/quin-nli', () => {
  it('is a standard NLI folder whose labels come from config.json', async () => {
    expect(readModelFolder(dir('quin-nli')).labels).toEqual(['entailment', 'contradiction', 'neutral']);
    const nli = await NliClassifier.load(dir('quin-nli'));
    opened.push(nli);
    const [same, unrelated] = await nli.classify([
      ['Daily vitamin D supplements reduced the risk of fractures in elderly women.', 'Vitamin D reduces fracture risk.'],
      ['The stock market closed higher on Tuesday after strong bank earnings.', 'Vitamin D reduces fracture risk.'],
    ]);
    expect(same!.entailment).toBeGreaterThan(same!.neutral);
    expect(unrelated!.neutral).toBeGreaterThan(Math.max(unrelated!.entailment, unrelated!.contradiction));
  });
});

describe('models/quin-nli in onnxruntime gives what it gave in PyTorch', () => {
  it('the same probabilities for the training run’s parity pairs (token ids as the trainer read them)', async () => {
    const cases = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'quin-nli-parity.json'), 'utf8')) as {
      evidence: string;
      claim: string;
      ids: number[];
      probs: number[];
    }[];
    expect(cases.length).toBeGreaterThanOrEqual(4);
    const nli = await NliClassifier.load(dir('quin-nli'));
    opened.push(nli);
    const got = await nli.classify(cases.map((c) => [c.evidence, c.claim]));
    cases.forEach((c, i) => {
      expect(got[i]!.entailment).toBeCloseTo(c.probs[0]!, 4);
      expect(got[i]!.contradiction).toBeCloseTo(c.probs[1]!, 4);
      expect(got[i]!.neutral).toBeCloseTo(c.probs[2]!, 4);
    });
  });
});

