/**
 * Snippet vectors from sentence vectors (pure). Snippets overlap (5 sentences, stride 3), so each
 * sentence is embedded once and its vector reused by every snippet that holds it. The strategy was
 * chosen on the SciFact dev split (see indexer/README.md):
 * - `mean`: the normalised mean of the sentence vectors;
 * - `mean-title`: the title counts as one more sentence;
 * - `title-mean`: half the title vector, half the mean of the sentences.
 */
import { createError } from '../../lib/errors';

export type Pooling = 'mean' | 'mean-title' | 'title-mean';

/** The pooling of every dense index: best on the SciFact dev split (indexer/README.md); an index records its own. */
export const DENSE_POOLING: Pooling = 'mean-title';

export interface EmbeddableSnippet {
  text: string;
  /** JSON `[[start, end], ...]` or already parsed. */
  sentenceSpans: string | [number, number][];
  title: string;
}

export function usesTitle(pooling: Pooling): boolean {
  return pooling !== 'mean';
}

function normalised(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / n;
  return v;
}

function mean(vectors: readonly Float32Array[], dim: number): Float32Array {
  const out = new Float32Array(dim);
  for (const v of vectors) for (let i = 0; i < dim; i++) out[i] = out[i]! + v[i]!;
  for (let i = 0; i < dim; i++) out[i] = out[i]! / vectors.length;
  return out;
}

export function poolSnippet(sentences: readonly Float32Array[], title: Float32Array | null, pooling: Pooling): Float32Array {
  if (sentences.length === 0) throw createError('INTERNAL', 'a snippet vector needs at least one sentence vector');
  const dim = sentences[0]!.length;
  if (pooling === 'mean' || !title) return normalised(mean(sentences, dim));
  if (pooling === 'mean-title') return normalised(mean([...sentences, title], dim));
  const m = normalised(mean(sentences, dim));
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) out[i] = 0.5 * title[i]! + 0.5 * m[i]!;
  return normalised(out);
}
