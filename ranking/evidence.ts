/**
 * Evidence sentences, pure: which sentences of a result answer the query best. A sentence's score
 * mixes the cosine between the query's and the sentence's cached embeddings with the share of query
 * words it contains (USE-lite alone is weak on technical text; word overlap alone misses paraphrase).
 * A sentence without a cached vector is scored on words only. Every result keeps its best sentences,
 * however low they score (Quin dropped results with no sentence above a fixed threshold).
 */
import type { SentenceSpan } from '../lib/text/sentences';
import { wordTokens } from './query';
import type { EvidenceSentence } from './types';

export { sentencesAtSpans, type SentenceSpan } from '../lib/text/sentences';

/** Weight of the embedding cosine against word overlap (docs/evaluation.md). */
export const EVIDENCE_COSINE_WEIGHT = 0.5;

/** A light plural/possessive folding (after Harman's S-stemmer), enough to match "vaccines"/"vaccine". */
export function foldWord(w: string): string {
  if (w.length > 4 && w.endsWith('ies') && !/[ae]ies$/.test(w)) return w.slice(0, -3) + 'y';
  if (w.length > 3 && w.endsWith('es') && !/[aeo]es$/.test(w)) return w.slice(0, -1);
  if (w.length > 3 && w.endsWith('s') && !/[us]s$/.test(w)) return w.slice(0, -1);
  return w;
}

export function overlapShare(queryTerms: readonly string[], sentence: string): number {
  if (!queryTerms.length) return 0;
  const words = new Set(wordTokens(sentence).map(foldWord));
  let hit = 0;
  for (const t of new Set(queryTerms.map(foldWord))) if (words.has(t)) hit++;
  return hit / new Set(queryTerms.map(foldWord)).size;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

export function sentenceScore(
  queryVector: Float32Array | null,
  sentenceVector: Float32Array | null,
  overlap: number,
  cosineWeight = EVIDENCE_COSINE_WEIGHT,
): number {
  if (!queryVector || !sentenceVector) return (1 - cosineWeight) * overlap;
  return cosineWeight * Math.max(0, cosine(queryVector, sentenceVector)) + (1 - cosineWeight) * overlap;
}

/** The n best sentences, best first (ties: earlier sentence first). */
export function pickEvidence(
  sentences: readonly SentenceSpan[],
  vectors: readonly (Float32Array | null)[],
  queryVector: Float32Array | null,
  queryTerms: readonly string[],
  n: number,
  cosineWeight = EVIDENCE_COSINE_WEIGHT,
): EvidenceSentence[] {
  return sentences
    .map((s, i) => ({ ...s, i, score: sentenceScore(queryVector, vectors[i] ?? null, overlapShare(queryTerms, s.text), cosineWeight) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, Math.max(0, n))
    .map(({ text, start, end, score }) => ({ text, start, end, score }));
}
