/**
 * mulberry32: a small seeded PRNG giving the same sequence on every machine (seeded samples in the
 * indexer's floor calibration, the benchmarks' synthetic corpus, training data and tests).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
