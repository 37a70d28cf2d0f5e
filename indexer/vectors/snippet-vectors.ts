/**
 * Snippet vectors for a batch of snippet rows: their sentences (and titles, when the pooling uses
 * them) are embedded through the cache — so a sentence shared by two overlapping snippets is embedded
 * once — then pooled into one normalised vector per snippet.
 */
import { createError } from '../../lib/errors';
import type { Encoder } from '../types';
import type { SentenceStore } from './store';
import { ensureEmbedded, type EmbedOptions, type EmbedStats } from './embed';
import { sentenceTexts } from '../../lib/text/sentences';
import { poolSnippet, usesTitle, type Pooling, type EmbeddableSnippet } from './pooling';

export interface VectorizeResult {
  vectors: Float32Array[];
  embed: EmbedStats;
}

export async function snippetVectors(
  rows: readonly EmbeddableSnippet[],
  encoder: Encoder,
  cache: SentenceStore,
  pooling: Pooling,
  opts: EmbedOptions = {},
): Promise<VectorizeResult> {
  const sentences = rows.map((r) => sentenceTexts(r.text, r.sentenceSpans));
  const titles = usesTitle(pooling) ? rows.map((r) => r.title.trim()) : [];
  const texts = [...sentences.flat(), ...titles.filter(Boolean)];
  const cached = await ensureEmbedded(encoder, cache, texts, opts);
  // Each distinct text read (or computed) once, however many snippets share it.
  const distinct = [...new Set(texts)];
  const started = performance.now();
  const got = cache.get(distinct);
  // A computing store (the static encoder) embeds here: count it as encoding, not as cache reads.
  const embed = cache.computes
    ? { ...cached, cached: 0, embedded: distinct.length, seconds: cached.seconds + (performance.now() - started) / 1000 }
    : cached;
  const byText = new Map(distinct.map((t, i) => [t, got[i]]));
  const vectorOf = (t: string) => {
    const v = byText.get(t);
    if (!v) throw createError('INTERNAL', 'sentence vector missing from the cache after embedding');
    return v;
  };
  const vectors = rows.map((_, i) => poolSnippet(sentences[i]!.map(vectorOf), titles[i] ? vectorOf(titles[i]!) : null, pooling));
  return { vectors, embed };
}
