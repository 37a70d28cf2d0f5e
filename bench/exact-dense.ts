/**
 * Exact dense search for the bench's recall curves: an HNSW index over f16 codes cannot be searched
 * exhaustively in float, so every live snippet's vector is computed again (as `quin index` computes
 * it) in chunks, each chunk searched exactly (a FAISS Flat index) and the per-claim top k merged.
 * Minutes at 1M (the encoding); memory: one chunk at a time.
 */
import type { Config } from '../lib/config';
import type { Db } from '../lib/db/client';
import type { LoadedDense } from '../indexer/dense/dense-index';
import { GuardedIndex } from '../indexer/dense/faiss-native';
import { chunks, snippetRows } from '../indexer/state';
import type { Encoder, Hit } from '../indexer/types';
import type { Pooling } from '../indexer/vectors/pooling';
import { snippetVectors } from '../indexer/vectors/snippet-vectors';
import { openSentenceStore } from '../indexer/vectors/store';

const CHUNK = 50_000;

function mergeTop(a: Hit[], b: Hit[], k: number): Hit[] {
  return [...a, ...b].sort((x, y) => y.score - x.score || x.snippetId - y.snippetId).slice(0, k);
}

/** The exact top k snippets of each query over the vectors the index should hold. */
export async function exactDenseTop(
  db: Db,
  config: Pick<Config, 'cacheDir'>,
  encoder: Encoder,
  loaded: LoadedDense,
  queries: readonly Float32Array[],
  k: number,
): Promise<Hit[][]> {
  const ids = [...loaded.positions].filter((id) => id >= 0);
  const cache = openSentenceStore(config.cacheDir, encoder);
  let top: Hit[][] = queries.map(() => []);
  try {
    for (const part of chunks(ids, CHUNK)) {
      const rows = await snippetRows(db, part);
      const { vectors } = await snippetVectors(rows, encoder, cache, (loaded.state.pooling ?? 'mean') as Pooling);
      const flat = GuardedIndex.create(encoder.dim, 'Flat');
      flat.add(vectors);
      top = top.map((sofar, i) => {
        const r = flat.search(queries[i]!, k);
        return mergeTop(
          sofar,
          r.labels.map((l, j) => ({ snippetId: rows[l]!.id, score: r.scores[j]! })),
          k,
        );
      });
    }
  } finally {
    cache.close();
  }
  return top;
}
