/**
 * Snippet vectors for a batch of snippet rows: their sentences (and titles, when the pooling uses
 * them) are embedded through the cache — so a sentence shared by two overlapping snippets is embedded
 * once — then pooled into one normalised vector per snippet.
 */
import { createError } from '../../lib/errors';
import type { Encoder } from '../types';
import type { VectorCache } from './cache';
import { ensureEmbedded, type EmbedOptions, type EmbedStats } from './embed';
import { poolSnippet, snippetSentences, usesTitle, type Pooling, type SnippetText } from './pooling';

export interface VectorizeResult {
  vectors: Float32Array[];
  embed: EmbedStats;
}

export async function snippetVectors(
  rows: readonly SnippetText[],
  encoder: Encoder,
  cache: VectorCache,
  pooling: Pooling,
  opts: EmbedOptions = {},
): Promise<VectorizeResult> {
  const sentences = rows.map(snippetSentences);
  const titles = usesTitle(pooling) ? rows.map((r) => r.title.trim()) : [];
  const texts = [...sentences.flat(), ...titles.filter(Boolean)];
  const embed = await ensureEmbedded(encoder, cache, texts, opts);
  const vectors = rows.map((_, i) => {
    const sv = cache.get(sentences[i]!);
    if (sv.some((v) => v === null)) throw createError('INTERNAL', 'sentence vector missing from the cache after embedding');
    const title = titles[i] ? cache.get([titles[i]!])[0]! : null;
    return poolSnippet(sv as Float32Array[], title, pooling);
  });
  return { vectors, embed };
}
