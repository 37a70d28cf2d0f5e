/** Test helpers shared by the dense layouts' tests (FAISS and USearch). */
import { isQuinError, type ErrorCode } from '../../lib/errors';

/** `xs` scaled to unit length. */
export const unit = (...xs: number[]): Float32Array => {
  const v = Float32Array.from(xs);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

/** `n` seeded pseudo-random unit vectors of `dim` dimensions (the same seed, the same vectors). */
export function randomUnitVectors(n: number, dim: number, seed = 1): Float32Array[] {
  let s = seed;
  const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647) * 2 - 1;
  return Array.from({ length: n }, () => unit(...Array.from({ length: dim }, rnd)));
}

/** The QuinError code `fn` throws, or 'none'. */
export function errorCode(fn: () => unknown): ErrorCode | 'none' {
  try {
    fn();
    return 'none';
  } catch (e) {
    if (!isQuinError(e)) throw e;
    return e.code;
  }
}
