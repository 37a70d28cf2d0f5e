/**
 * Where sentence vectors come from: the on-disk cache (vectors/cache.ts) for encoders that are slow
 * to run (ONNX), or straight from the encoder for those cheaper to run than to read back
 * (the static encoder's `embedSync`), which would otherwise fill the disk with vectors at 1M
 * snippets. Both answer the same calls, so the indexer, `--verify` and the query side use either.
 */
import type { Encoder } from '../types';
import { VectorCache } from './cache';

export type SentenceStore = Pick<VectorCache, 'get' | 'has' | 'put' | 'close' | 'compact'> & {
  /** True when `get` runs the encoder (its time is encoding time, its texts are embedded). */
  readonly computes?: boolean;
};

/** Vectors computed on request; nothing is stored. */
export class ComputedVectors implements SentenceStore {
  readonly computes = true;

  constructor(private readonly embed: (texts: readonly string[]) => Float32Array[]) {}

  get(texts: readonly string[]): Float32Array[] {
    return this.embed(texts);
  }

  has(): boolean {
    return true;
  }

  put(): void {}

  close(): void {}

  compact(): number {
    return 0;
  }
}

export function openSentenceStore(cacheDir: string, encoder: Encoder): SentenceStore {
  return encoder.embedSync ? new ComputedVectors(encoder.embedSync.bind(encoder)) : new VectorCache(cacheDir, encoder.id, encoder.dim);
}
