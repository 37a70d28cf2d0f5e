/**
 * Each role against a real standard-layout ONNX folder (lib/models/fixtures, made by
 * training/fixtures/make_tiny_models.py): onnxruntime-node's outputs must equal PyTorch's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isQuinError } from '../errors';
import { CrossEncoder } from './cross-encoder';
import { SentenceEncoder } from './encoder';
import { readModelFolder } from './folder';
import { projectRoot } from '../paths';
import { NliClassifier, nliLabelIndex } from './nli';
import { softmax } from './pooling';
import { hasVnni, sessionOptions } from './ort-session';

const FIX = path.join(__dirname, 'fixtures');
const expected = JSON.parse(fs.readFileSync(path.join(FIX, 'expected.json'), 'utf8')) as {
  singles: string[];
  pairs: [string, string][];
  encoder: { embeddings: number[][] };
  cross_encoder: { logits: number[][] };
  nli: { logits: number[][] };
};
const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const m of opened) await m.close();
});

describe('model folders', () => {
  it('reads both onnx layouts, pooling and labels', () => {
    const enc = readModelFolder(path.join(FIX, 'tiny-encoder'));
    expect(enc.onnxPath.endsWith(path.join('tiny-encoder', 'model.onnx'))).toBe(true);
    expect(enc.pooling).toBe('mean');
    expect(enc.maxLength).toBe(128);
    const nli = readModelFolder(path.join(FIX, 'tiny-nli'));
    expect(nli.onnxPath.endsWith(path.join('onnx', 'model.onnx'))).toBe(true);
    expect(nli.labels).toEqual(['Neutral', 'CONTRADICTION', 'entailment']);
  });

  it('rejects a folder without model.onnx, or with broken JSON, with clear codes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-model-'));
    expect(() => readModelFolder(path.join(dir, 'absent'))).toThrow(/does not exist/);
    try {
      readModelFolder(dir);
      expect.unreachable();
    } catch (e) {
      expect(isQuinError(e, 'MODEL_INVALID')).toBe(true);
    }
    fs.copyFileSync(path.join(FIX, 'tiny-encoder', 'model.onnx'), path.join(dir, 'model.onnx'));
    fs.writeFileSync(path.join(dir, 'config.json'), '{not json');
    fs.copyFileSync(path.join(projectRoot(), 'models/tokenizers/bert-base-uncased/tokenizer.json'), path.join(dir, 'tokenizer.json'));
    expect(() => readModelFolder(dir)).toThrow(/config.json is not valid JSON/);
  });
});

describe('NLI label mapping', () => {
  it('accepts any order and casing, and FEVER spellings', () => {
    expect(nliLabelIndex(['CONTRADICTION', 'ENTAILMENT', 'NEUTRAL'])).toEqual({ contradiction: 0, entailment: 1, neutral: 2 });
    expect(nliLabelIndex(['Neutral', 'entailment', 'Contradiction'])).toEqual({ neutral: 0, entailment: 1, contradiction: 2 });
    expect(nliLabelIndex(['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO'])).toEqual({ entailment: 0, contradiction: 1, neutral: 2 });
    expect(() => nliLabelIndex(['LABEL_0', 'LABEL_1'])).toThrow(/missing entailment, contradiction, neutral/);
  });
});

describe('onnxruntime roles', () => {
  it('sentence encoder: mean pooling, normalised, equal to PyTorch', async () => {
    const enc = await SentenceEncoder.load(path.join(FIX, 'tiny-encoder'), { batchSize: 1 });
    opened.push(enc);
    expect(enc.dim).toBe(4);
    expect(enc.id).toMatch(/^onnx:tiny-encoder@[0-9a-f]{12}$/);
    const vecs = await enc.embed(expected.singles);
    vecs.forEach((v, i) => {
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
      v.forEach((x, d) => expect(x).toBeCloseTo(expected.encoder.embeddings[i]![d]!, 4));
    });
    expect(await enc.embed([])).toEqual([]);
  });

  it('cross-encoder: one score per passage, batch-independent, equal to PyTorch', async () => {
    const ce = await CrossEncoder.load(path.join(FIX, 'tiny-cross-encoder'), { batchSize: 2 });
    opened.push(ce);
    for (const [i, [q, p]] of expected.pairs.entries()) {
      const [s] = await ce.score(q, [p]);
      expect(s).toBeCloseTo(expected.cross_encoder.logits[i]![0]!, 4);
    }
    // Padding inside a batch of different lengths must not change a score.
    const q = expected.pairs[0]![0];
    const alone = await ce.score(q, ['a cat is sitting']);
    const batched = await ce.score(q, ['a much longer passage about many other things entirely', 'a cat is sitting', 'x']);
    expect(batched[1]).toBeCloseTo(alone[0]!, 5);
  });

  it('NLI: probabilities by label name from id2label, equal to PyTorch', async () => {
    const nli = await NliClassifier.load(path.join(FIX, 'tiny-nli'));
    opened.push(nli);
    const probs = await nli.classify(expected.pairs);
    probs.forEach((p, i) => {
      const ref = softmax(expected.nli.logits[i]!); // order in config: Neutral, CONTRADICTION, entailment
      expect(p.neutral).toBeCloseTo(ref[0]!, 5);
      expect(p.contradiction).toBeCloseTo(ref[1]!, 5);
      expect(p.entailment).toBeCloseTo(ref[2]!, 5);
      expect(p.entailment + p.contradiction + p.neutral).toBeCloseTo(1, 6);
    });
  });

  it('refuses a model in the wrong role', async () => {
    await expect(NliClassifier.load(path.join(FIX, 'tiny-cross-encoder'))).rejects.toThrow(/id2label must name entailment/);
    await expect(CrossEncoder.load(path.join(FIX, 'tiny-encoder'))).rejects.toThrow(/needs an output named logits/);
  });

  it('builds provider and thread options from config; cuda falls back to cpu in the provider list', async () => {
    expect(sessionOptions({ provider: 'cpu', threads: 0 }).executionProviders).toEqual(['cpu']);
    expect(sessionOptions({ provider: 'cuda', threads: 2 })).toMatchObject({ executionProviders: [{ name: 'cuda', deviceId: 0 }, 'cpu'], intraOpNumThreads: 2 });
    // The exact int8 product on x86 CPUs without VNNI (ort-session.ts says why); with VNNI the fast one is exact.
    const cpuinfo = fs.existsSync('/proc/cpuinfo') ? fs.readFileSync('/proc/cpuinfo', 'utf8') : '';
    const session = (sessionOptions({ provider: 'cpu', threads: 0 }).extra as { session: Record<string, unknown> }).session;
    expect(session.x64quantprecision).toBe(hasVnni(cpuinfo) ? undefined : '1');
    // This machine has no CUDA provider library: the failure must be a clear MODEL_UNAVAILABLE.
    if (!fs.existsSync(path.join(path.dirname(require.resolve('onnxruntime-node')), '..', 'bin', 'napi-v6', 'linux', 'x64', 'libonnxruntime_providers_cuda.so'))) {
      await expect(CrossEncoder.load(path.join(FIX, 'tiny-cross-encoder'), { provider: 'cuda' })).rejects.toThrow(/QUIN_ORT_PROVIDER=cpu/);
    }
  });
});

describe('hasVnni', () => {
  // The flags lines of /proc/cpuinfo on three CPUs (shortened): an AMD EPYC Zen 3 (AVX2 only), a
  // Xeon of the Sapphire Rapids kind (AVX-512 VNNI and AMX), an Alder Lake core (AVX-VNNI without AVX-512).
  const zen3 = 'processor\t: 0\nflags\t\t: fpu vme sse4_2 avx f16c avx2 bmi2 sha_ni vaes vpclmulqdq\nbugs\t\t: sysret_ss_attrs\n';
  const sapphire = 'processor\t: 0\nflags\t\t: fpu avx2 avx512f avx512bw avx512_vnni avx512_bf16 amx_bf16 amx_tile amx_int8\n';
  const alderLake = 'flags\t\t: fpu avx2 avx_vnni sha_ni\n';

  it('reads VNNI from the flags line only', () => {
    expect(hasVnni(zen3)).toBe(false);
    expect(hasVnni(sapphire)).toBe(true);
    expect(hasVnni(alderLake)).toBe(true);
    // Not a flag: a word in another line, or a flag that only starts like one.
    expect(hasVnni('model name\t: avx512_vnni lookalike\nflags\t\t: avx2\n')).toBe(false);
    expect(hasVnni('flags\t\t: avx512_vnnix avx2\n')).toBe(false);
    expect(hasVnni('')).toBe(false);
  });
});
