/**
 * The dense index as ranking/ sees it: a FAISS file loaded once (never rebuilt at start) plus the
 * position → snippet-id map from the database. Positions whose snippet was deleted are tombstones,
 * skipped at search time (FAISS is asked for k + tombstones). A long-running reader (the web server)
 * re-checks the checkpoint version every few seconds and reloads when the indexer committed a new one.
 */
import path from 'node:path';
import type { Db } from '../../lib/db/client';
import { createError } from '../../lib/errors';
import { createLogger } from '../../lib/log';
import { indexesDir } from '../files';
import { forEachDenseEntry, readState, type IndexStateRow } from '../state';
import type { DenseIndex, DenseThresholds, Hit } from '../types';
import type { SearchOut } from './faiss-native';
import { readVectorIndex, type VectorIndex } from './vector-index';
import { readFloor, type DenseFloor } from './floor-calibration';

const log = createLogger('dense');
const RECHECK_MS = 3000;

export interface LoadedDense {
  index: VectorIndex;
  /** The relevance floor measured for this index's encoder (floor-calibration.ts), when one is stored. */
  floor: DenseFloor | null;
  /** position → snippet id, −1 for tombstones. */
  positions: Int32Array;
  tombstones: number;
  state: IndexStateRow;
}

/** position → snippet id (−1: a tombstone) for an index of `ntotal` vectors, read from the dense map a page at a time. */
export async function readPositionMap(db: Db, ntotal: number): Promise<{ positions: Int32Array; tombstones: number }> {
  const positions = new Int32Array(ntotal).fill(-1);
  let live = 0;
  await forEachDenseEntry(db, (position, snippetId) => {
    if (position < 0 || position >= ntotal)
      throw createError('INDEX_CORRUPT', `dense map names position ${position}, the FAISS file holds ${ntotal}`);
    if (positions[position] === -1) live += 1;
    positions[position] = snippetId;
  });
  return { positions, tombstones: ntotal - live };
}

/**
 * IVF indexes: inverted lists searched per query. 64 of 1024 kept 84% of the exact top 10 with the
 * default encoder on the demo corpora (32: 75%, 128: 91%) at twice the work of 32 (docs/benchmarks.md).
 * Pick it by the curve `npm run bench:search` prints (recall@10/@100 against exact search and the
 * latency of each nprobe, at 100k and 1M on a quiet machine: bench/pruning.ts), not by hand: the
 * work per query is nprobe/1024 of the index, so at 1M each step of the curve costs ~2× the dense time.
 */
export const FAISS_NPROBE = 64;

/**
 * HNSW indexes: candidates kept per search (a search for the pipeline's k = 500 keeps at least 500).
 * 500 kept 0.978 of the exact top 10 at 100k but 0.884 at 1M (the synthetic 1M corpus: sentences
 * recombined, so many near neighbours); IVF1024,Flat kept 0.749 in 26 ms. 1536 kept 0.963 / 0.967
 * of the exact top 10 at 1M on two builds, but the fused top 100 only 0.9507 / 0.9546 of exhaustive
 * BM25 + exact dense search: a margin of half a point over the 0.95 goal, within what one build of
 * the graph differs from the next. 2048 keeps 0.972 / 0.977 and 0.964 / 0.967; the walk alone at 1M
 * read 15.8 → 17.0 and 18.0 → 25.1 ms at p50 in two runs, the dense stage of a hybrid search ~2 ms
 * more (2026-12-01, docs/benchmarks.md). Picked by the efSearch
 * curve `npm run bench:search` prints (bench/pruning.ts) and bench/faiss-types.ts.
 */
export const DENSE_EF_SEARCH = 2048;

/** What a reader expects of the index on disk, and how it searches it. */
export interface DenseExpect {
  encoderId: string;
  dim: number;
  /** IVF indexes: inverted lists searched per query (FAISS_NPROBE). */
  nprobe?: number;
  /** HNSW indexes: candidates kept per search (DENSE_EF_SEARCH). */
  efSearch?: number;
  /** The index will be extended (the indexer): read whole, where a reader's is memory-mapped. */
  writable?: boolean;
}

/** Loads the checkpointed index named by the database; null when none was built yet. */
export async function loadDense(db: Db, dataDir: string, expect: DenseExpect): Promise<LoadedDense | null> {
  const state = await readState(db, 'dense');
  if (!state || !state.file || state.ntotal === 0) return null;
  if (state.encoderId !== expect.encoderId || state.dim !== expect.dim) {
    throw createError(
      'INDEX_UNAVAILABLE',
      `the dense index was built with ${state.encoderId} (${state.dim}-d) but the encoder is ${expect.encoderId} (${expect.dim}-d); run \`quin index\` to rebuild it`,
    );
  }
  const index = readVectorIndex(path.join(indexesDir(dataDir), state.file), expect.dim, state.factory ?? 'Flat', expect.writable);
  if (expect.nprobe) index.setSearchParam('nprobe', expect.nprobe);
  if (expect.efSearch) index.setSearchParam('efSearch', expect.efSearch);
  if (index.ntotal !== state.ntotal) {
    throw createError(
      'INDEX_CORRUPT',
      `FAISS file ${state.file} holds ${index.ntotal} vectors, its checkpoint says ${state.ntotal}; run \`quin index\``,
    );
  }
  const { positions, tombstones } = await readPositionMap(db, index.ntotal);
  const stored = readFloor(indexesDir(dataDir));
  const floor = stored && stored.encoderId === state.encoderId && stored.pooling === state.pooling ? stored : null;
  return { index, floor, positions, tombstones, state };
}

/** How many the index is asked for: k, plus the tombstones it may return among them. */
const asked = (d: LoadedDense, k: number) => Math.min(d.index.ntotal, Math.floor(k) + d.tombstones);

function hitsOf(d: LoadedDense, r: SearchOut, k: number): Hit[] {
  const hits: Hit[] = [];
  for (let i = 0; i < r.labels.length && hits.length < k; i++) {
    const id = d.positions[r.labels[i]!];
    if (id === undefined || id < 0) continue;
    hits.push({ snippetId: id, score: r.scores[i]! });
  }
  return hits;
}

/** Top-k snippets from a loaded index, tombstones skipped. */
export function searchLoaded(d: LoadedDense, query: Float32Array, k: number): Hit[] {
  if (k < 1 || d.index.ntotal === 0) return [];
  return hitsOf(d, d.index.search(query, asked(d, k)), k);
}

/** As searchLoaded, off this thread where the layout can be (USearch: its search thread), so the caller's other work goes on meanwhile. */
export async function searchLoadedAsync(d: LoadedDense, query: Float32Array, k: number): Promise<Hit[]> {
  if (k < 1 || d.index.ntotal === 0) return [];
  return hitsOf(d, await d.index.searchAsync(query, asked(d, k)), k);
}

/** The query-side DenseIndex, reloading after the indexer commits a new checkpoint. */
export class DenseReader implements DenseIndex {
  private checkedAt = Date.now();
  private reloading: Promise<void> | undefined;

  constructor(
    private current: LoadedDense | null,
    private readonly db: Db,
    private readonly dataDir: string,
    private readonly expect: DenseExpect,
  ) {}

  static async open(db: Db, dataDir: string, expect: DenseExpect): Promise<DenseReader> {
    return new DenseReader(await loadDense(db, dataDir, expect), db, dataDir, expect);
  }

  get loaded(): LoadedDense | null {
    return this.current;
  }

  size(): number {
    return this.current ? this.current.index.ntotal - this.current.tombstones : 0;
  }

  floor(): DenseThresholds | null {
    const f = this.current?.floor;
    return f ? { matchMin: f.matchMin, onlyMin: f.onlyMin } : null;
  }

  async search(query: Float32Array, k: number): Promise<Hit[]> {
    await this.refresh();
    return this.current ? searchLoadedAsync(this.current, query, k) : [];
  }

  close(): void {
    this.current?.index.close();
    this.current = null;
  }

  /** Public so that callers can check before size(): an empty index is never searched, so search() alone would never reload it. */
  async refresh(): Promise<void> {
    if (Date.now() - this.checkedAt < RECHECK_MS) return;
    this.checkedAt = Date.now();
    this.reloading ??= (async () => {
      try {
        const state = await readState(this.db, 'dense');
        if ((state?.version ?? null) === (this.current?.state.version ?? null)) return;
        const previous = this.current;
        this.current = await loadDense(this.db, this.dataDir, this.expect);
        // The replaced checkpoint's file is unmapped (a search already sent to it is answered first).
        previous?.index.close();
        log.info('dense index reloaded', { version: this.current?.state.version ?? 0, vectors: this.current?.index.ntotal ?? 0 });
      } catch (e) {
        // Keep serving the index we have; the indexer may be mid-checkpoint.
        log.warn('dense index reload failed; serving the previous one', { error: (e as Error).message });
      } finally {
        this.reloading = undefined;
      }
    })();
    // A search does not wait for a new checkpoint to load (~1.5 s at 1M: the position map and the
    // files) while there is an index to answer with: it answers, and the next one finds the new
    // checkpoint. Without one (none built yet, or empty) it waits, so the first checkpoint serves at once.
    if (this.size() === 0) await this.reloading;
  }
}
