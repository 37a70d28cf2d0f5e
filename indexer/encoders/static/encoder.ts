/**
 * The static sentence encoder (default, QUIN_ENCODER=static): a token-embedding table, distilled
 * from Universal Sentence Encoder Lite (models/quin-static) and then trained contrastively for
 * retrieval (models/quin-static-retrieval, the default; training/encoder/, its README). A sentence
 * vector is the mean of its tokens' rows, L2-normalised: no neural network at run time, thousands of
 * sentences per second on one core. A text with no known token gets the zero vector (cosine 0 with
 * everything).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { createError } from '../../../lib/errors';
import type { Encoder } from '../../types';
import { decodeStaticModel, type StaticModel } from './model-file';
import { StaticTokenizer } from './tokenizer';

export const STATIC_MODEL_FILE = 'model.bin';

export interface StaticEncoder extends Encoder {
  readonly tokenizer: StaticTokenizer;
  /** One text's vector, written into `out` (length dim); for callers that batch their own arrays. */
  embedInto(text: string, out: Float32Array): void;
  embedSync(texts: readonly string[]): Float32Array[];
}

/** The encoder of a loaded model; its id names the file's content hash. */
export function staticEncoderFrom(model: StaticModel, name: string, hash: string): StaticEncoder {
  const { dim } = model.header;
  const { scales, rows } = model;
  const tokenizer = new StaticTokenizer(model.vocab);
  const ids: number[] = [];
  const embedInto = (text: string, out: Float32Array) => {
    out.fill(0);
    ids.length = 0;
    const n = tokenizer.encodeInto(text, ids);
    for (let t = 0; t < n; t++) {
      const id = ids[t]!;
      const s = scales[id]!;
      const off = id * dim;
      for (let j = 0; j < dim; j++) out[j]! += s * rows[off + j]!;
    }
    let norm = 0;
    for (let j = 0; j < dim; j++) norm += out[j]! * out[j]!;
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let j = 0; j < dim; j++) out[j]! *= inv;
    }
  };
  const embedSync = (texts: readonly string[]) =>
    texts.map((t) => {
      const v = new Float32Array(dim);
      embedInto(t, v);
      return v;
    });
  return {
    id: `static:${name}@${hash}`,
    dim,
    tokenizer,
    embedInto,
    embedSync,
    async embed(texts: string[]): Promise<Float32Array[]> {
      return embedSync(texts);
    },
  };
}

/** Loads `<dir>/model.bin`; MODEL_UNAVAILABLE when absent, MODEL_INVALID when damaged. */
export function loadStaticEncoder(dir: string): StaticEncoder {
  const file = path.join(dir, STATIC_MODEL_FILE);
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    throw createError('MODEL_UNAVAILABLE', `static encoder: ${file} is missing (npm run train:encoder builds it)`);
  }
  const hash = crypto.createHash('sha256').update(buf).digest('hex').slice(0, 12);
  const encoder = staticEncoderFrom(decodeStaticModel(buf, file), path.basename(path.resolve(dir)), hash);
  const fusion = readFusion(dir);
  return fusion === undefined ? encoder : { ...encoder, fusionBm25Weight: fusion };
}

export const FUSION_FILE = 'fusion.json';

const Fusion = z.object({ bm25Weight: z.number().min(0).max(1) }).passthrough();

/**
 * BM25's fusion weight fitted for the encoder in `dir` (`quin eval tune-fusion --folds 5 --write` for
 * a static table; an ONNX folder's fusion.json likewise), when the folder has one; MODEL_INVALID when damaged.
 */
export function readFusion(dir: string): number | undefined {
  const file = path.join(dir, FUSION_FILE);
  if (!fs.existsSync(file)) return undefined;
  const parsed = Fusion.safeParse(
    (() => {
      try {
        return JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch {
        return null;
      }
    })(),
  );
  if (!parsed.success) throw createError('MODEL_INVALID', `${file}: not a fusion file ({"bm25Weight": 0…1, …})`);
  return parsed.data.bm25Weight;
}
