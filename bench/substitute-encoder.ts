/**
 * The benchmark's stand-in encoder for bulk vectors. USE-lite embeds ~20 sentences/s here, so 100k
 * snippets (~150k sentences) would take hours; the benchmark embeds a sample with the real encoder to
 * measure its throughput, and gives the bulk of the corpus these vectors instead: feature-hashed bag
 * of words (each word adds a fixed pseudo-random ±1 pattern over the dimensions), L2-normalised, with
 * USE-lite's dimension. They cost what real vectors cost in FAISS (same size, similar clustering by
 * shared words) and are labelled as substitutes wherever numbers are reported.
 */
import crypto from 'node:crypto';
import type { Encoder } from '../indexer/types';

const WORD = /[\p{L}\p{N}]+/gu;
/** Dimensions each word touches. */
const TOUCH = 16;

function wordPattern(word: string, dim: number): { idx: Uint32Array; sign: Int8Array } {
  const h = crypto.createHash('sha256').update(word).digest();
  const idx = new Uint32Array(TOUCH);
  const sign = new Int8Array(TOUCH);
  for (let i = 0; i < TOUCH; i++) {
    idx[i] = h.readUInt16LE((i * 2) % 30) % dim;
    sign[i] = (h[31 - i]! & 1) === 1 ? 1 : -1;
  }
  return { idx, sign };
}

export function substituteEncoder(dim = 512): Encoder {
  const patterns = new Map<string, { idx: Uint32Array; sign: Int8Array }>();
  const embedOne = (text: string) => {
    const v = new Float32Array(dim);
    for (const w of text.toLowerCase().match(WORD) ?? []) {
      let p = patterns.get(w);
      if (!p) patterns.set(w, (p = wordPattern(w, dim)));
      for (let i = 0; i < TOUCH; i++) v[p.idx[i]!]! += p.sign[i]!;
    }
    let n = 0;
    for (const x of v) n += x * x;
    if (n === 0) v[0] = 1;
    else for (let i = 0; i < dim; i++) v[i]! /= Math.sqrt(n);
    return v;
  };
  return { id: `substitute-hashed-bow-${dim}`, dim, embed: async (texts) => texts.map(embedOne) };
}
