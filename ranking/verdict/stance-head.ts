/**
 * An optional stance head beside an NLI model (its folder's stance-head.onnx + stance-head.json):
 * a small ONNX model that reads the claim's and the evidence sentence's vectors from the dense
 * index's encoder together with the NLI model's probabilities and returns refined entailment /
 * contradiction / neutral logits. Ours (training/train_stance_head.py) adds what Universal Sentence
 * Encoder Lite knows about the two sentences as wholes to quin-nli's word-level judgement.
 *
 * It only applies where its inputs exist: the encoder serving the dense index must be the one it was
 * trained on (another encoder's vectors mean something else), and a sentence without a cached vector
 * keeps the NLI model's own probabilities.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { createError } from '../../lib/errors';
import { openSession, softmax, type NliLabel, type NliProbs, type RuntimeOptions } from '../../lib/models';

const STANCE_HEAD_FILE = 'stance-head.onnx';
const META_FILE = 'stance-head.json';
const INPUTS = ['claim_vector', 'evidence_vector', 'nli_probs'] as const;

interface Meta {
  encoder: string;
  dim: number;
  labels: NliLabel[];
}

function readMeta(file: string): Meta {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw createError('MODEL_INVALID', `${file}: ${(e as Error).message}`);
  }
  const m = raw as Partial<Meta>;
  const labels = new Set(m.labels ?? []);
  const ok =
    typeof m.encoder === 'string' &&
    Number.isInteger(m.dim) &&
    (m.dim ?? 0) > 0 &&
    m.labels?.length === 3 &&
    ['entailment', 'contradiction', 'neutral'].every((l) => labels.has(l as NliLabel));
  if (!ok)
    throw createError(
      'MODEL_INVALID',
      `${file}: needs "encoder" (an encoder id), "dim" (a positive integer) and "labels" (entailment, contradiction, neutral in the order of the logits)`,
    );
  return m as Meta;
}

export class StanceHead {
  private constructor(
    private readonly session: ort.InferenceSession,
    readonly encoder: string,
    readonly dim: number,
    private readonly labels: NliLabel[],
  ) {}

  /** The head in an NLI model folder, or null when the folder has none. */
  static async load(dir: string, runtime: RuntimeOptions): Promise<StanceHead | null> {
    const onnx = path.join(dir, STANCE_HEAD_FILE);
    if (!fs.existsSync(onnx)) return null;
    const meta = readMeta(path.join(dir, META_FILE));
    const session = await openSession(onnx, runtime);
    const missing = INPUTS.filter((n) => !session.inputNames.includes(n));
    if (missing.length || !session.outputNames.includes('logits')) {
      await session.release();
      throw createError(
        'MODEL_INVALID',
        `${onnx}: needs inputs ${INPUTS.join(', ')} and output logits (missing ${[...missing, ...(session.outputNames.includes('logits') ? [] : ['logits'])].join(', ')})`,
      );
    }
    return new StanceHead(session, meta.encoder, meta.dim, meta.labels);
  }

  /** Whether vectors from this encoder are what the head was trained on. */
  accepts(encoderId: string, dim: number): boolean {
    return encoderId === this.encoder && dim === this.dim;
  }

  /**
   * Refined probabilities, one per judgement, in input order. `evidence[i]` null (no cached vector)
   * or of the wrong size keeps `probs[i]` as it was.
   */
  async refine(probs: readonly NliProbs[], claim: Float32Array, evidence: readonly (Float32Array | null)[]): Promise<NliProbs[]> {
    if (claim.length !== this.dim) return [...probs];
    const rows = probs.map((_, i) => i).filter((i) => evidence[i]?.length === this.dim);
    if (!rows.length) return [...probs];
    const n = rows.length;
    const u = new Float32Array(n * this.dim);
    const v = new Float32Array(n * this.dim);
    const p = new Float32Array(n * 3);
    rows.forEach((i, r) => {
      u.set(claim, r * this.dim);
      v.set(evidence[i]!, r * this.dim);
      this.labels.forEach((l, k) => (p[r * 3 + k] = probs[i]![l]));
    });
    const out = await this.session.run({
      claim_vector: new ort.Tensor('float32', u, [n, this.dim]),
      evidence_vector: new ort.Tensor('float32', v, [n, this.dim]),
      nli_probs: new ort.Tensor('float32', p, [n, 3]),
    });
    const logits = out.logits;
    if (!logits || logits.type !== 'float32' || logits.dims.join() !== `${n},3`)
      throw createError('MODEL_INVALID', `${STANCE_HEAD_FILE}: expected float32 logits of shape [${n}, 3]`);
    const data = logits.data as Float32Array;
    const refined = [...probs];
    rows.forEach((i, r) => {
      const s = softmax(data.subarray(r * 3, r * 3 + 3));
      refined[i] = Object.fromEntries(this.labels.map((l, k) => [l, s[k]!])) as NliProbs;
    });
    return refined;
  }

  close(): Promise<void> {
    return this.session.release();
  }
}
