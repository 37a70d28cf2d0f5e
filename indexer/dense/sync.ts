/**
 * Keeps the FAISS index in step with the snippets table.
 *
 * Durability protocol. The database row index_state('dense') names the one index file that is
 * current; the file and the map entries change together only at a checkpoint:
 *   1. the in-memory index (with the new vectors) is written to a NEW file dense-v<N+1>.faiss
 *      atomically (temp, fsync, rename);
 *   2. one database transaction inserts the new position → snippet entries and moves the state to
 *      version N+1 / the new file (this commit is the point of no return);
 *   3. the previous file is deleted.
 * A kill before 2 leaves the state naming the old, intact file (the new one is a stray, deleted at the
 * next start); a kill after 2 leaves a stray old file. Deletions need no file change: deleting a
 * snippet deletes its entry (foreign key, same transaction), its position becomes a tombstone, and a
 * rebuild compacts once tombstones pass FAISS_COMPACT_RATIO. A rebuild (compaction, new encoder
 * or pooling, index type change) builds a complete new file and replaces the whole map in one commit;
 * until then the old index keeps serving.
 */
import path from 'node:path';
import type { Config } from '../../lib/config';
import type { Db } from '../../lib/db/client';
import { createError, isQuinError } from '../../lib/errors';
import { createLogger } from '../../lib/log';
import { yieldToEventLoop } from '../event-loop';
import { failpoint } from '../failpoint';
import { indexesDir, removeStrayFiles, sha256File } from '../files';
import { allSnippetIds, chunks, commitDenseCheckpoint, readState, snippetRows, type IndexStateRow } from '../state';
import type { Encoder } from '../types';
import type { SentenceStore } from '../vectors/store';
import { DENSE_POOLING, type Pooling } from '../vectors/pooling';
import { snippetVectors } from '../vectors/snippet-vectors';
import { DENSE_EF_SEARCH, FAISS_NPROBE, loadDense, type LoadedDense } from './dense-index';
import { minTrainingPoints } from './faiss-native';
import { createVectorIndex, layoutSuffix, type VectorIndex } from './vector-index';
import { USEARCH_DEFAULT } from './usearch-native';
import { calibrateFloor, floorFits, readFloor, writeFloor } from './floor-calibration';

const log = createLogger('index:dense');

export const DENSE_FILE_PREFIX = 'dense-';
/** Snippets embedded and added per step (progress granularity); checkpoints are per INDEX_BATCH_SIZE. */
const STEP = 64;
const CHECKPOINT_MIN_SECONDS = 30;
/** A checkpoint rewrites the whole file: at most ~10% of the run goes into them (1 GB at 1M snippets). */
const CHECKPOINT_COST_SHARE = 10;

export type DenseConfig = Pick<Config, 'dataDir' | 'tuning'>;

/** Snippets per indexing batch: one checkpoint (and one Elasticsearch bulk request) per batch. */
export const INDEX_BATCH_SIZE = 512;
/** Sentences per encoder call (sorted by length first): past 32 the static and ONNX encoders gain nothing. */
export const EMBED_BATCH_SIZE = 32;
/**
 * FAISS index: `auto` is exact up to FAISS_EXACT_MAX snippets and `IVF1024,Flat` above (chosen by
 * measurement, chooseFactory below and docs/benchmarks.md); tests and benchmarks try other factory strings.
 */
export const FAISS_FACTORY = 'auto';
export const FAISS_EXACT_MAX = 50_000;
/** Rebuild the FAISS index when a fifth of its vectors belong to deleted snippets: a rebuild costs about one full indexing pass. */
export const FAISS_COMPACT_RATIO = 0.2;

/** The dense index's constants, with what tests and benchmarks vary (Config.tuning). */
export function denseTuning(config: Pick<Config, 'tuning'>) {
  const t = config.tuning;
  return {
    indexBatchSize: t.indexBatchSize ?? INDEX_BATCH_SIZE,
    faissFactory: t.faissFactory ?? FAISS_FACTORY,
    faissExactMax: t.faissExactMax ?? FAISS_EXACT_MAX,
    faissCompactRatio: t.faissCompactRatio ?? FAISS_COMPACT_RATIO,
    faissNprobe: t.faissNprobe ?? FAISS_NPROBE,
    denseEfSearch: t.denseEfSearch ?? DENSE_EF_SEARCH,
    densePooling: (t.densePooling ?? DENSE_POOLING) as Pooling,
  };
}

export interface DenseSyncOptions {
  signal?: AbortSignal;
  rebuild?: boolean;
  /** Called with snippets done (and the total once known). */
  onProgress?: (done: number, total: number) => void;
}

export interface DenseSyncStats {
  added: number;
  /** Tombstones dropped by a rebuild. */
  compacted: number;
  rebuilt: string | null;
  checkpoints: number;
  sentencesEmbedded: number;
  sentencesCached: number;
  embedSeconds: number;
  seconds: number;
  ntotal: number;
  live: number;
  factory: string;
  aborted: boolean;
  /** The relevance floor was (re)measured for this index (floor-calibration.ts). */
  floorCalibrated: boolean;
}

/** The index a run ends with, for the floor's calibration: which positions are tombstones. */
interface Built {
  index: VectorIndex;
  dead: (position: number) => boolean;
  deadCount: number;
}

/**
 * The FAISS factory string for a corpus of n snippets. `auto`: exact up to FAISS_EXACT_MAX, then
 * IVF-Flat with 1024 lists (exact distances within the lists searched; trains in about a minute and
 * builds in minutes where HNSW32 takes hours at 1M on two cores (FAISS_NPROBE lists searched: with
 * the default static encoder on the 86,799 demo snippets, 32 / 64 / 128 lists kept 75 / 84 / 91 % of
 * the exact top 10 of 200 claims, docs/benchmarks.md); with a pre-release table at 300k snippets, nprobe 32 kept
 * 95.6% of the exact top 100 at p50 1.9 ms, and 4096 lists did worse at the same nprobe —
 * docs/benchmarks.md). One list count for every size keeps the share of the index searched, and so
 * the recall, the same as a corpus grows, and the index is trained once.
 */
export function chooseFactory(config: Pick<Config, 'tuning'>, n: number): string {
  const { faissFactory, faissExactMax } = denseTuning(config);
  if (faissFactory !== 'auto') return faissFactory;
  return n <= faissExactMax ? 'Flat' : USEARCH_DEFAULT;
}

interface Ctx {
  db: Db;
  config: DenseConfig;
  encoder: Encoder;
  cache: SentenceStore;
  opts: DenseSyncOptions;
  stats: DenseSyncStats;
}

function aborted(ctx: Ctx): boolean {
  return ctx.opts.signal?.aborted === true;
}

async function vectorsFor(ctx: Ctx, ids: number[]) {
  const rows = await snippetRows(ctx.db, ids);
  const r = await snippetVectors(rows, ctx.encoder, ctx.cache, denseTuning(ctx.config).densePooling, {
    batchSize: EMBED_BATCH_SIZE,
    signal: ctx.opts.signal,
  });
  ctx.stats.sentencesEmbedded += r.embed.embedded;
  ctx.stats.sentencesCached += r.embed.cached;
  ctx.stats.embedSeconds += r.embed.seconds;
  return { ids: rows.map((r) => r.id), vectors: r.vectors };
}

/** Writes the index to a new file and commits it with its entries; returns the new state. */
async function checkpoint(
  ctx: Ctx,
  index: VectorIndex,
  base: IndexStateRow | null,
  entries: { position: number; snippetId: number }[],
  replace: boolean,
): Promise<IndexStateRow> {
  const dir = indexesDir(ctx.config.dataDir);
  const version = (base?.version ?? 0) + 1;
  const file = `${DENSE_FILE_PREFIX}v${version}.${layoutSuffix(index.factory)}`;
  const fileBytes = index.writeFile(path.join(dir, file));
  failpoint('dense:after-file');
  const state = {
    backend: 'faiss',
    encoderId: ctx.encoder.id,
    dim: ctx.encoder.dim,
    factory: index.factory,
    pooling: denseTuning(ctx.config).densePooling,
    file,
    fileSha256: sha256File(path.join(dir, file)),
    fileBytes,
    ntotal: index.ntotal,
  };
  await commitDenseCheckpoint(ctx.db, { fromVersion: base?.version ?? null, state, entries, replace });
  failpoint('dense:after-commit');
  removeStrayFiles(dir, DENSE_FILE_PREFIX, file);
  ctx.stats.checkpoints += 1;
  return { name: 'dense', version, updatedAt: new Date(), ...state };
}

/** Why the current index cannot simply be extended, or null. */
function rebuildReason(
  ctx: Ctx,
  state: IndexStateRow | null,
  loaded: LoadedDense | null,
  liveIds: number,
  loadError: string | null,
): string | null {
  if (ctx.opts.rebuild) return 'requested';
  if (!state || !state.file || state.ntotal === 0) {
    if (minTrainingPoints(chooseFactory(ctx.config, liveIds)) > 1) return 'first build of a trained index type';
    // One file written at the end, not a checkpoint every ~5 % of a growing graph (54 at 60k snippets).
    return liveIds > denseTuning(ctx.config).faissExactMax ? 'first build of a large corpus' : null;
  }
  if (state.encoderId !== ctx.encoder.id || state.dim !== ctx.encoder.dim)
    return `encoder changed (${state.encoderId} → ${ctx.encoder.id})`;
  if (state.pooling !== denseTuning(ctx.config).densePooling)
    return `pooling changed (${state.pooling} → ${denseTuning(ctx.config).densePooling})`;
  if (loadError) return `index file unusable: ${loadError}`;
  if (!loaded) return null;
  const wanted = chooseFactory(ctx.config, liveIds);
  if (wanted !== loaded.index.factory && liveIds >= minTrainingPoints(wanted)) {
    if (denseTuning(ctx.config).faissFactory !== 'auto') return `the FAISS factory changed (${loaded.index.factory} → ${wanted})`;
    if (wanted !== 'Flat') return `${liveIds} snippets call for ${wanted} (was ${loaded.index.factory})`;
  }
  const ratio = loaded.index.ntotal ? loaded.tombstones / loaded.index.ntotal : 0;
  if (loaded.tombstones > 0 && ratio > denseTuning(ctx.config).faissCompactRatio)
    return `compaction (${loaded.tombstones} of ${loaded.index.ntotal} vectors deleted)`;
  return null;
}

/** Adds the snippets missing from the loaded (or a new, empty) index, with checkpoints. */
async function extend(ctx: Ctx, state: IndexStateRow | null, loaded: LoadedDense | null, dbIds: number[]): Promise<Built> {
  const index = loaded?.index ?? createVectorIndex(ctx.encoder.dim, chooseFactory(ctx.config, dbIds.length));
  const mapped = new Set<number>();
  if (loaded) for (const id of loaded.positions) if (id >= 0) mapped.add(id);
  const todo = dbIds.filter((id) => !mapped.has(id));
  ctx.opts.onProgress?.(0, todo.length);
  let base = state;
  let pending: { position: number; snippetId: number }[] = [];
  let lastCheckpoint = Date.now();
  let checkpointMs = 0;
  let done = 0;
  for (const step of chunks(todo, Math.min(STEP, denseTuning(ctx.config).indexBatchSize))) {
    await yieldToEventLoop();
    if (aborted(ctx)) break;
    const got = await vectorsFor(ctx, step).catch((e: unknown) => {
      if (isQuinError(e, 'CANCELLED')) return null; // keep what is done: checkpoint below
      throw e;
    });
    if (!got) break;
    const { ids, vectors } = got;
    const first = index.ntotal;
    index.add(vectors);
    ids.forEach((snippetId, i) => pending.push({ position: first + i, snippetId }));
    ctx.stats.added += ids.length;
    done += step.length;
    ctx.opts.onProgress?.(done, todo.length);
    failpoint('dense:after-add');
    const waited = Date.now() - lastCheckpoint;
    const due =
      pending.length >= denseTuning(ctx.config).indexBatchSize &&
      (pending.length >= index.ntotal / 20 || waited > Math.max(CHECKPOINT_MIN_SECONDS * 1000, CHECKPOINT_COST_SHARE * checkpointMs));
    if (due) {
      const t = Date.now();
      base = await checkpoint(ctx, index, base, pending, false);
      pending = [];
      lastCheckpoint = Date.now();
      checkpointMs = lastCheckpoint - t;
    }
  }
  // Also when nothing was added: a first run over an empty corpus records an (empty) checkpoint.
  if (pending.length || !base) base = await checkpoint(ctx, index, base, pending, false);
  ctx.stats.ntotal = index.ntotal;
  ctx.stats.factory = index.factory;
  const old = loaded?.positions;
  return { index, dead: (p) => old !== undefined && p < old.length && old[p]! < 0, deadCount: loaded?.tombstones ?? 0 };
}

/**
 * n ids spread evenly over the whole list (ids follow import order, so a prefix would hold only the
 * first corpora imported: with 86,779 demo snippets, the first 50,000 left SciFact out of the IVF
 * training and its claims found half their exact top 10 at nprobe 32).
 */
export function trainingSample(ids: readonly number[], n: number): number[] {
  if (n >= ids.length) return [...ids];
  return Array.from({ length: n }, (_, i) => ids[Math.floor((i * ids.length) / n)]!);
}

/** Builds a complete new index from every snippet and replaces the old one in one commit. */
async function rebuild(ctx: Ctx, state: IndexStateRow | null, dbIds: number[], oldTombstones: number): Promise<Built | null> {
  let factory = chooseFactory(ctx.config, dbIds.length);
  const need = minTrainingPoints(factory);
  if (dbIds.length < need) {
    log.warn(`${factory} needs ${need} training vectors, the corpus has ${dbIds.length}: using an exact index until it grows`);
    factory = 'Flat';
  }
  const index = createVectorIndex(ctx.encoder.dim, factory);
  ctx.opts.onProgress?.(0, dbIds.length);
  if (!index.isTrained) {
    // Train on an evenly spread sample (k-means wants ≥ 39 points per centroid; more only costs time).
    const n = Math.min(dbIds.length, Math.max(need * 39, 50_000));
    const sample = trainingSample(dbIds, n);
    const vecs: Float32Array[] = [];
    for (const part of chunks(sample, STEP * 8)) vecs.push(...(await vectorsFor(ctx, part)).vectors);
    if (vecs.length < need) throw createError('INTERNAL', `only ${vecs.length} training vectors for ${factory}`);
    log.info(`training ${factory} on ${vecs.length} vectors`);
    index.train(vecs);
  }
  const entries: { position: number; snippetId: number }[] = [];
  let done = 0;
  for (const step of chunks(dbIds, STEP)) {
    await yieldToEventLoop();
    if (aborted(ctx)) return null; // the old index keeps serving; the cache keeps what was embedded
    const got = await vectorsFor(ctx, step).catch((e: unknown) => {
      if (isQuinError(e, 'CANCELLED')) return null;
      throw e;
    });
    if (!got) return null;
    const { ids, vectors } = got;
    const first = index.ntotal;
    index.add(vectors);
    ids.forEach((snippetId, i) => entries.push({ position: first + i, snippetId }));
    done += step.length;
    ctx.opts.onProgress?.(done, dbIds.length);
    failpoint('dense:after-add');
  }
  await checkpoint(ctx, index, state, entries, true);
  ctx.stats.added += entries.length;
  ctx.stats.compacted = oldTombstones;
  ctx.stats.ntotal = index.ntotal;
  ctx.stats.factory = index.factory;
  return { index, dead: () => false, deadCount: 0 };
}

/** Snippets whose words make the word-salad calibration queries: evenly spread over the corpus. */
const SALAD_SNIPPETS = 300;

/** Measures the relevance floor of this encoder on this index when the stored one does not fit it (floor-calibration.ts). */
async function calibrate(ctx: Ctx, built: Built, dbIds: number[]): Promise<boolean> {
  const dir = indexesDir(ctx.config.dataDir);
  const live = built.index.ntotal - built.deadCount;
  if (live === 0 || floorFits(readFloor(dir), ctx.encoder.id, denseTuning(ctx.config).densePooling, live)) return false;
  const t = Date.now();
  if (denseTuning(ctx.config).faissNprobe) built.index.setSearchParam('nprobe', denseTuning(ctx.config).faissNprobe);
  const step = Math.max(1, Math.floor(dbIds.length / SALAD_SNIPPETS));
  const rows = await snippetRows(ctx.db, dbIds.filter((_, i) => i % step === 0).slice(0, SALAD_SNIPPETS));
  const floor = await calibrateFloor({
    encoderId: ctx.encoder.id,
    pooling: denseTuning(ctx.config).densePooling,
    ntotal: live,
    embed: (texts) => ctx.encoder.embed(texts),
    best: (v) => {
      const r = built.index.search(v, Math.min(built.index.ntotal, 1 + built.deadCount));
      const i = r.labels.findIndex((l) => !built.dead(l));
      return i < 0 ? -1 : r.scores[i]!;
    },
    sampleTexts: rows.map((r) => `${r.title} ${r.text}`),
  });
  writeFloor(dir, floor);
  log.info('relevance floor calibrated', { matchMin: floor.matchMin, onlyMin: floor.onlyMin, seconds: (Date.now() - t) / 1000 });
  return true;
}

export async function syncDense(
  db: Db,
  config: DenseConfig,
  encoder: Encoder,
  cache: SentenceStore,
  opts: DenseSyncOptions = {},
): Promise<DenseSyncStats> {
  const started = Date.now();
  const stats: DenseSyncStats = {
    added: 0,
    compacted: 0,
    rebuilt: null,
    checkpoints: 0,
    sentencesEmbedded: 0,
    sentencesCached: 0,
    embedSeconds: 0,
    seconds: 0,
    ntotal: 0,
    live: 0,
    factory: '',
    aborted: false,
    floorCalibrated: false,
  };
  const ctx: Ctx = { db, config, encoder, cache, opts, stats };
  const state = await readState(db, 'dense');
  removeStrayFiles(indexesDir(config.dataDir), DENSE_FILE_PREFIX, state?.file ?? null);
  let loaded: LoadedDense | null = null;
  let loadError: string | null = null;
  const compatible = state?.encoderId === encoder.id && state?.dim === encoder.dim && state?.pooling === denseTuning(config).densePooling;
  if (compatible) {
    try {
      loaded = await loadDense(db, config.dataDir, { encoderId: encoder.id, dim: encoder.dim, writable: true });
    } catch (e) {
      if (!isQuinError(e)) throw e;
      loadError = e.message;
    }
  }
  const dbIds = await allSnippetIds(db);
  const reason = rebuildReason(ctx, state, loaded, dbIds.length, loadError);
  let built: Built | null;
  if (reason) {
    stats.rebuilt = reason;
    log.info(`rebuilding the dense index: ${reason}`);
    built = await rebuild(ctx, state, dbIds, loaded?.tombstones ?? 0);
  } else {
    built = await extend(ctx, state, loaded, dbIds);
  }
  stats.aborted = aborted(ctx);
  if (built && !stats.aborted) stats.floorCalibrated = await calibrate(ctx, built, dbIds);
  const final = await readState(db, 'dense');
  stats.ntotal = final?.ntotal ?? 0;
  stats.factory = final?.factory ?? stats.factory;
  stats.live = await db.denseEntry.count();
  stats.seconds = (Date.now() - started) / 1000;
  return stats;
}
