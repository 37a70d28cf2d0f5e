/**
 * Embeds texts through the cache: each distinct text is embedded at most once, ever (per encoder).
 * Missing texts are sorted by length before batching, so that a batch holds texts of similar length
 * (less padding work), and every batch is appended to the cache as soon as it is done, so that a kill
 * loses at most one batch of work.
 */
import { createError } from '../../lib/errors';
import type { Encoder } from '../types';
import type { SentenceStore } from './store';

export interface EmbedOptions {
  batchSize?: number;
  signal?: AbortSignal;
  /** Called after each embedded batch with the number of texts embedded in it. */
  onBatch?: (embedded: number) => void;
}

export interface EmbedStats {
  requested: number;
  distinct: number;
  cached: number;
  embedded: number;
  seconds: number;
}

/** Batches of texts of similar length (ascending), so that little work goes into padding. */
export function batchesByLength(texts: readonly string[], batchSize: number): string[][] {
  const sorted = [...texts].sort((a, b) => a.length - b.length);
  const out: string[][] = [];
  for (let i = 0; i < sorted.length; i += batchSize) out.push(sorted.slice(i, i + batchSize));
  return out;
}

/** Makes sure every text has a cached vector; returns what it did. */
export async function ensureEmbedded(
  encoder: Encoder,
  cache: SentenceStore,
  texts: readonly string[],
  opts: EmbedOptions = {},
): Promise<EmbedStats> {
  const started = Date.now();
  const distinct = [...new Set(texts)];
  const missing = distinct.filter((t) => !cache.has(t));
  let embedded = 0;
  for (const batch of batchesByLength(missing, opts.batchSize ?? 32)) {
    if (opts.signal?.aborted) throw createError('CANCELLED', 'embedding cancelled');
    const vectors = await encoder.embed(batch);
    if (vectors.length !== batch.length)
      throw createError('MODEL_INVALID', `${encoder.id} returned ${vectors.length} vectors for ${batch.length} texts`);
    for (const v of vectors) {
      if (v.length !== encoder.dim)
        throw createError('MODEL_INVALID', `${encoder.id} returned a ${v.length}-d vector, expected ${encoder.dim}`);
      if (!v.every(Number.isFinite)) throw createError('MODEL_INVALID', `${encoder.id} returned a non-finite vector`);
    }
    cache.put(batch, vectors);
    embedded += batch.length;
    opts.onBatch?.(batch.length);
  }
  return {
    requested: texts.length,
    distinct: distinct.length,
    cached: distinct.length - missing.length,
    embedded,
    seconds: (Date.now() - started) / 1000,
  };
}

/** Vectors for texts, embedding what the cache lacks. */
export async function embedWithCache(
  encoder: Encoder,
  cache: SentenceStore,
  texts: readonly string[],
  opts: EmbedOptions = {},
): Promise<Float32Array[]> {
  await ensureEmbedded(encoder, cache, texts, opts);
  return cache.get(texts).map((v, i) => {
    if (!v) throw createError('INTERNAL', `vector cache lost the vector of text #${i}`);
    return v;
  });
}
