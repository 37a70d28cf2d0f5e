/**
 * Teacher vectors from Universal Sentence Encoder Lite, through the shared sentence-embedding cache
 * (QUIN_CACHE_DIR, keyed by encoder id and text hash): whatever the product, `quin eval` or an
 * earlier training run already embedded is read back, and only the rest is embedded (USE-lite runs
 * ~15–25 sentences/s here, so a cold run of the whole set takes hours; run it under `nice`).
 */
import { ensureEmbedded, VectorCache } from '../../indexer';
import { createUseLiteEncoder, USE_LITE_DIM, USE_LITE_ID } from './use-lite';

export function teacherCache(cacheDir: string): VectorCache {
  return new VectorCache(cacheDir, USE_LITE_ID, USE_LITE_DIM);
}

/** Embeds what the cache lacks, printing progress to stderr. */
export async function ensureTeacher(cache: VectorCache, texts: readonly string[], label: string): Promise<void> {
  const missing = [...new Set(texts)].filter((t) => !cache.has(t));
  process.stderr.write(`teacher ${label}: ${texts.length} texts, ${missing.length} to embed with ${USE_LITE_ID}\n`);
  if (!missing.length) return;
  const encoder = createUseLiteEncoder();
  let done = 0;
  const started = Date.now();
  let last = 0;
  await ensureEmbedded(encoder, cache, missing, {
    batchSize: 32,
    onBatch: (n) => {
      done += n;
      if (Date.now() - last > 30_000 || done === missing.length) {
        last = Date.now();
        const rate = done / ((Date.now() - started) / 1000);
        process.stderr.write(
          `teacher ${label}: ${done}/${missing.length} (${rate.toFixed(1)}/s, ETA ${Math.round((missing.length - done) / rate / 60)} min)\n`,
        );
      }
    },
  });
}

/** Vectors of texts (every one must be cached), as rows of one Float32Array. */
export function teacherMatrix(cache: VectorCache, texts: readonly string[]): Float32Array {
  const out = new Float32Array(texts.length * USE_LITE_DIM);
  const vs = cache.get(texts);
  vs.forEach((v, i) => {
    if (!v) throw new Error(`teacher vector missing for "${texts[i]!.slice(0, 60)}"`);
    out.set(v, i * USE_LITE_DIM);
  });
  return out;
}
