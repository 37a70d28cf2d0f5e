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
import { feedsFor, sessionOptions, ThreadSession } from './ort-session';
import { NliClassifier, type NliProbs } from './nli';

const dir = (name: string) => path.join(projectRoot(), 'models', name);

/**
 * How far onnxruntime-node may read an int8 graph from what Python's onnxruntime read at export, on
 * another x86 CPU. The fixtures were written where the int8 product is exact (VNNI); on an AVX2-only
 * CPU (an AMD EPYC Zen 3 here), with the exact product asked for (`x64quantprecision`, ort-session.ts),
 * the float kernels still differ in their last bits, and requantising the activations turns that into
 * at most 0.0074 of a logit and 0.0049 of a probability over the fixtures. Without `x64quantprecision`
 * a reranker logit there was 0.10 off. The tokenisation is checked exactly, above each of these.
 */
const CROSS_CPU_LOGIT = 0.02;
const CROSS_CPU_PROBABILITY = 0.01;
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

describe('models/quin-reranker in onnxruntime-node gives what it gave in PyTorch', () => {
  // Written by training/train_reranker.py at export: dev pairs (SciFact and Climate-FEVER claims against
  // their hybrid candidates, both inputs) as the trainer tokenised them, with PyTorch's logit (fp32)
  // and the shipped int8 graph's in Python's onnxruntime.
  const cases = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'quin-reranker-parity.json'), 'utf8')) as {
    query: string;
    passage: string;
    ids: number[];
    torch: number;
    int8: number;
  }[];

  it('tokenises each pair as the trainer did', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
    const ce = await CrossEncoder.load(dir('quin-reranker'));
    opened.push(ce);
    for (const c of cases) expect(ce.model.tokenizer.encodeOne(c.query, c.passage, ce.model.maxLength).ids).toEqual(c.ids);
  });

  it('the int8 model gives the logit it gave in Python, and PyTorch’s within quantisation error', async () => {
    const ce = await CrossEncoder.load(dir('quin-reranker'));
    opened.push(ce);
    // One pair a call, as the trainer scored them: int8 activations are quantised per batch.
    const got: number[] = [];
    for (const c of cases) got.push(...(await ce.score(c.query, [c.passage])));
    const spread = Math.max(...cases.map((c) => c.torch)) - Math.min(...cases.map((c) => c.torch));
    cases.forEach((c, i) => {
      expect(Math.abs(got[i]! - c.int8)).toBeLessThan(CROSS_CPU_LOGIT);
      expect(Math.abs(got[i]! - c.torch)).toBeLessThan(0.1 * spread);
    });
  });
});

describe('the int8 product the sessions ask for', () => {
  // Where the CPU has VNNI the sessions use onnxruntime's fast int8 product, which is exact there;
  // elsewhere they ask for the exact one (ort-session.ts). Either way a batch reads as the exact
  // product reads it, to the bit: checked on the reranker's parity pairs, eight rows a call.
  it('gives the exact product’s outputs', async () => {
    const folder = readModelFolder(dir('quin-reranker'));
    const ce = await CrossEncoder.load(dir('quin-reranker'));
    opened.push(ce);
    const cases = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'quin-reranker-parity.json'), 'utf8')) as { query: string; passage: string }[];
    const served = sessionOptions({ provider: 'cpu', threads: 0 }) as { extra: { session: Record<string, unknown> } };
    const exact = await ThreadSession.open(folder.onnxPath, { ...served, extra: { session: { ...served.extra.session, x64quantprecision: '1' } } });
    try {
      for (let i = 0; i < cases.length; i += 8) {
        const enc = ce.model.tokenizer.pad(cases.slice(i, i + 8).map((c) => ce.model.tokenizer.encodeOne(c.query, c.passage, ce.model.maxLength)));
        const [a, b] = await Promise.all([ce.model.session.run(feedsFor(ce.model.session, enc)), exact.run(feedsFor(exact, enc))]);
        expect(Array.from(a.logits!.data as Float32Array)).toEqual(Array.from(b.logits!.data as Float32Array));
      }
    } finally {
      await exact.release();
    }
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

describe('models/quin-nli in onnxruntime-node gives what it gave in PyTorch', () => {
  // Written by training/stance/train_nli.py at export: held-out pairs as the trainer tokenised them,
  // with PyTorch's probabilities (fp32) and the shipped int8 graph's in Python's onnxruntime.
  const cases = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'quin-nli-parity.json'), 'utf8')) as {
    evidence: string;
    claim: string;
    ids: number[];
    torch: number[];
    int8: number[];
  }[];

  it('tokenises each pair as the trainer did', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(12);
    const nli = await NliClassifier.load(dir('quin-nli'));
    opened.push(nli);
    for (const c of cases) expect(nli.model.tokenizer.encodeOne(c.evidence, c.claim, nli.model.maxLength).ids).toEqual(c.ids);
  });

  it('the int8 model gives the probabilities it gave in Python, and PyTorch’s within quantisation error', async () => {
    const nli = await NliClassifier.load(dir('quin-nli'));
    opened.push(nli);
    // One pair a call: int8 activations are quantised per batch (the scale spans every row), so a pair's
    // probabilities move a little with the rows batched beside it; alone, it reads as Python read it.
    const got: NliProbs[] = [];
    for (const c of cases) got.push(...(await nli.classify([[c.evidence, c.claim]])));
    let drift = 0;
    cases.forEach((c, i) => {
      const p = [got[i]!.entailment, got[i]!.contradiction, got[i]!.neutral];
      p.forEach((x, k) => {
        expect(Math.abs(x - c.int8[k]!)).toBeLessThan(CROSS_CPU_PROBABILITY);
        drift += Math.abs(x - c.torch[k]!) / (3 * cases.length);
      });
      // Quantisation moves probabilities a little (int8 weights), never the decision on a clear case.
      const sorted = [...c.torch].sort((a, b) => b - a);
      if (sorted[0]! - sorted[1]! > 0.3) expect(p.indexOf(Math.max(...p))).toBe(c.torch.indexOf(sorted[0]!));
    });
    expect(drift).toBeLessThan(0.03);
  });
});
