/**
 * Recently embedded queries, per encoder: paging through results, the web page's refresh and the
 * API's retries ask for the same text again, and the query embedding is the slowest step of a hybrid
 * search (USE-lite: ~15–30 ms). A small LRU map; vectors are never mutated by the pipeline.
 */
import type { Encoder } from '../indexer/types';

export const QUERY_VECTOR_CACHE_SIZE = 256;

const caches = new WeakMap<Encoder, Map<string, Float32Array>>();

export async function embedQuery(encoder: Encoder, text: string, size = QUERY_VECTOR_CACHE_SIZE): Promise<Float32Array | undefined> {
  let cache = caches.get(encoder);
  if (!cache) caches.set(encoder, (cache = new Map()));
  const hit = cache.get(text);
  if (hit) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const [v] = await encoder.embed([text]);
  if (v && size > 0) {
    cache.set(text, v);
    if (cache.size > size) cache.delete(cache.keys().next().value!);
  }
  return v;
}
