/** Pooling of token embeddings into one sentence vector (sentence-transformers' Pooling module). Pure. */
import type { Pooling } from './folder';

/**
 * hidden: [batch, seqLen, dim] row-major; mask: [batch, seqLen] (1 = real token). Returns one
 * L2-normalised vector per row.
 */
export function poolAndNormalize(hidden: Float32Array, mask: BigInt64Array, batch: number, seqLen: number, dim: number, mode: Pooling): Float32Array[] {
  const out: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    const v = new Float32Array(dim);
    if (mode === 'cls') {
      v.set(hidden.subarray(b * seqLen * dim, b * seqLen * dim + dim));
    } else {
      let count = 0;
      if (mode === 'max') v.fill(-Infinity);
      for (let t = 0; t < seqLen; t++) {
        if (mask[b * seqLen + t] === 0n) continue;
        count++;
        const base = (b * seqLen + t) * dim;
        for (let d = 0; d < dim; d++) v[d] = mode === 'max' ? Math.max(v[d]!, hidden[base + d]!) : v[d]! + hidden[base + d]!;
      }
      if (mode === 'mean') for (let d = 0; d < dim; d++) v[d] = v[d]! / Math.max(count, 1);
      if (count === 0) v.fill(0);
    }
    out.push(normalize(v));
  }
  return out;
}

export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / n;
  return v;
}

export function softmax(logits: ArrayLike<number>): number[] {
  const m = Math.max(...Array.from(logits));
  const e = Array.from(logits, (x) => Math.exp(x - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}
