/**
 * The stance head through onnxruntime: a fixture head with known weights
 * (training/fixtures/make_stance_head.py) against the same arithmetic done here, the label mapping,
 * the cases where it must not apply, and our own head in models/quin-nli.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/paths';
import type { NliProbs } from '../../lib/models';
import type { SearchIndexes } from '../../indexer/types';
import type { SearchResult } from '../types';
import { NliVerdictStage } from './stage';
import { StanceHead } from './stance-head';

const FIXTURE = path.join(projectRoot(), 'ranking', 'verdict', 'fixtures', 'tiny-stance-head');
const RUNTIME = { threads: 1, provider: 'cpu' as const };
const LABELS = ['neutral', 'entailment', 'contradiction'] as const; // the fixture's order
const heads: StanceHead[] = [];

async function load(dir = FIXTURE): Promise<StanceHead> {
  const h = await StanceHead.load(dir, RUNTIME);
  if (!h) throw new Error(`no head in ${dir}`);
  heads.push(h);
  return h;
}
afterAll(async () => {
  for (const h of heads) await h.close();
});

/** What the fixture computes: logits = W·[u; v; |u−v|; u·v; log(p + 1e-6)] + b, then softmax. */
function expected(u: number[], v: number[], p: NliProbs): NliProbs {
  const x = [
    ...u,
    ...v,
    ...u.map((a, i) => Math.abs(a - v[i]!)),
    ...u.map((a, i) => a * v[i]!),
    ...LABELS.map((l) => Math.log(p[l] + 1e-6)),
  ];
  const z = [0, 1, 2].map((k) => x.reduce((s, xj, j) => s + ((((k * 7 + j * 3) % 11) - 5) / 10) * xj, (k - 1) / 10));
  const m = Math.max(...z);
  const e = z.map((t) => Math.exp(t - m));
  const sum = e.reduce((a, b) => a + b, 0);
  return Object.fromEntries(LABELS.map((l, k) => [l, e[k]! / sum])) as unknown as NliProbs;
}

const P = (entailment: number, contradiction: number): NliProbs => ({ entailment, contradiction, neutral: 1 - entailment - contradiction });

describe('stance head', () => {
  it('computes the trained linear layer over [u; v; |u−v|; u·v; log p] and maps its labels by name', async () => {
    const head = await load();
    expect(head.accepts('test-encoder@1', 4)).toBe(true);
    expect(head.accepts('use-lite@0.2.0', 4)).toBe(false);
    const u = [0.5, -0.5, 0.5, 0.5];
    const vs = [
      [0.5, -0.5, 0.5, 0.5],
      [-0.7, 0.1, 0.7, 0.1],
    ];
    const probs = [P(0.7, 0.1), P(0.2, 0.5)];
    const out = await head.refine(
      probs,
      Float32Array.from(u),
      vs.map((v) => Float32Array.from(v)),
    );
    out.forEach((o, i) => {
      const want = expected(u, vs[i]!, probs[i]!);
      for (const l of LABELS) expect(o[l]).toBeCloseTo(want[l], 5);
      expect(o.entailment + o.contradiction + o.neutral).toBeCloseTo(1, 6);
    });
    expect(out[0]).not.toEqual(probs[0]);
  });

  it('keeps the NLI probabilities where a vector is missing or of another size', async () => {
    const head = await load();
    const probs = [P(0.6, 0.2), P(0.1, 0.8), P(0.3, 0.3)];
    const out = await head.refine(probs, Float32Array.from([1, 0, 0, 0]), [
      null,
      Float32Array.from([1, 0]),
      Float32Array.from([0, 1, 0, 0]),
    ]);
    expect(out[0]).toEqual(probs[0]);
    expect(out[1]).toEqual(probs[1]);
    expect(out[2]).not.toEqual(probs[2]);
    expect(await head.refine(probs, Float32Array.from([1, 0]), [null, null, null])).toEqual(probs);
  });

  it('is absent from a folder without one, and a malformed description is refused with the file named', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-head-'));
    expect(await StanceHead.load(dir, RUNTIME)).toBeNull();
    fs.copyFileSync(path.join(FIXTURE, 'stance-head.onnx'), path.join(dir, 'stance-head.onnx'));
    fs.writeFileSync(path.join(dir, 'stance-head.json'), JSON.stringify({ encoder: 'x', dim: 4, labels: ['yes', 'no', 'maybe'] }));
    await expect(StanceHead.load(dir, RUNTIME)).rejects.toThrow(/stance-head\.json.*labels/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the verdict stage applies it only with vectors of the encoder it was trained on', async () => {
    const head = await load();
    const nli = { id: 'onnx:fake@1', classify: async (pairs: [string, string][]) => pairs.map(() => P(0.5, 0.2)) };
    const stage = new NliVerdictStage(nli, { depth: 1, sentences: 1, minEvidence: 0.3, mixedRatio: 1.01 }, head);
    expect(stage.id).toBe('onnx:fake@1+stance-head');
    const vectors = new Map([['Evidence one.', Float32Array.from([0, 1, 0, 0])]]);
    const indexes = (encoder: string) =>
      ({
        encoder: { id: encoder, dim: 4 },
        sentenceVectors: { get: async (ss: string[]) => ss.map((s) => vectors.get(s) ?? null) },
      }) as unknown as SearchIndexes;
    const result = {
      evidence: [{ text: ' Evidence one. ', start: 0, end: 14, score: 1 }],
      text: 'Evidence one.',
      scores: { recency: 1, final: 1 },
    } as unknown as SearchResult;
    const query = { text: 'a claim', claim: 'a claim', kind: 'claim', terms: [] } as never;
    const queryVector = Float32Array.from([1, 0, 0, 0]);
    const withHead = await stage.judge([result], { query, queryVector, indexes: indexes('test-encoder@1') });
    expect(withHead.judged[0]!.probs.entailment).toBeCloseTo(expected([1, 0, 0, 0], [0, 1, 0, 0], P(0.5, 0.2)).entailment, 5);
    for (const ctx of [{ query }, { query, queryVector, indexes: indexes('other-encoder@1') }])
      expect((await stage.judge([result], ctx)).judged[0]!.probs).toEqual(P(0.5, 0.2));
  });

  it('ours (models/quin-nli) loads, names the encoder it was trained on and returns distributions', async () => {
    const head = await load(path.join(projectRoot(), 'models', 'quin-nli'));
    expect(head.encoder).toBe('use-lite@0.2.0');
    const dim = head.dim;
    const unit = (seed: number) => {
      const v = Float32Array.from({ length: dim }, (_, i) => Math.sin(seed * (i + 1)));
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const out = await head.refine([P(0.8, 0.1), P(0.1, 0.8)], unit(1), [unit(1), unit(2)]);
    for (const o of out) expect(o.entailment + o.contradiction + o.neutral).toBeCloseTo(1, 5);
  });
});
