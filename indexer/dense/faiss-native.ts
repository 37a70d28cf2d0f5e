/**
 * faiss-node (built by scripts/setup.d/40-faiss.sh into vendor/faiss-build/) behind a guarded wrapper.
 * A FAISS C++ exception that the binding does not catch aborts the whole Node process (seen with `add`
 * on an untrained IVF index, `removeIds` on HNSW, `search` with k = 0, `write` to a missing folder), so
 * every call here checks its preconditions first and only the calls that cannot fail reach FAISS:
 * dimensions, finiteness, trained state, non-empty, 1 ≤ k ≤ ntotal. Files are written from JS
 * (toBuffer → temp → fsync → rename) rather than with faiss' own writer, whose I/O errors abort.
 * The binding takes plain number arrays, so vectors are converted in chunks.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createError } from '../../lib/errors';
import { projectRoot } from '../../lib/paths';

interface NativeIndex {
  ntotal(): number;
  getDimension(): number;
  isTrained(): boolean;
  add(x: number[]): void;
  train(x: number[]): void;
  search(x: number[], k: number): { distances: number[]; labels: number[] };
  toBuffer(): Buffer;
}

interface FaissModule {
  Index: {
    fromFactory(dims: number, descriptor: string, metric?: number): NativeIndex;
    read(fname: string): NativeIndex;
  };
  MetricType: { METRIC_INNER_PRODUCT: number };
}

const MAX_DIM = 65_536;
/** Vectors per native add call: bounds the temporary number[] (dim × chunk doubles). */
const ADD_CHUNK = 1024;

let loaded: FaissModule | undefined;
let loadError: string | undefined;

export function faissModulePath(): string {
  return path.join(projectRoot(), 'vendor', 'faiss-build', 'node_modules', 'faiss-node');
}

/** The binding, or a clear INDEX_UNAVAILABLE error saying how to build it. */
export function loadFaiss(): FaissModule {
  if (loaded) return loaded;
  if (loadError) throw createError('INDEX_UNAVAILABLE', loadError);
  try {
    // The comment keeps Next.js (Turbopack) from replacing this run-time path when it bundles the web app.
    loaded = createRequire(import.meta.url)(/* turbopackIgnore: true */ faissModulePath()) as FaissModule;
    return loaded;
  } catch (e) {
    loadError = `FAISS binding not available (${(e as Error).message.split('\n')[0]}); run: bash scripts/setup.d/40-faiss.sh`;
    throw createError('INDEX_UNAVAILABLE', loadError);
  }
}

export function faissAvailable(): boolean {
  try {
    loadFaiss();
    return true;
  } catch {
    return false;
  }
}

/**
 * Training points a factory string needs before FAISS accepts them (k-means needs at least as many
 * points as centroids: IVF<n> has n, PQ/`SQ` codebooks 2^8). Unknown strings need 1.
 */
export function minTrainingPoints(factory: string): number {
  let need = 1;
  const ivf = /IVF(\d+)/i.exec(factory);
  if (ivf) need = Math.max(need, Number(ivf[1]));
  if (/PQ\d+/i.test(factory)) need = Math.max(need, 256);
  return need;
}

const FACTORY_RE = /^[A-Za-z0-9_,.+=x-]{1,100}$/;

function checkVectors(vectors: readonly Float32Array[], dim: number, what: string): void {
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i]!;
    if (v.length !== dim) throw createError('INVALID_INPUT', `${what}: vector #${i} has dimension ${v.length}, index has ${dim}`);
    for (let j = 0; j < dim; j++) {
      if (!Number.isFinite(v[j])) throw createError('INVALID_INPUT', `${what}: vector #${i} is not finite`);
    }
  }
}

function flatten(vectors: readonly Float32Array[], dim: number): number[] {
  const out = new Array<number>(vectors.length * dim);
  let o = 0;
  for (const v of vectors) for (let j = 0; j < dim; j++) out[o++] = v[j]!;
  return out;
}

export interface SearchOut {
  labels: number[];
  scores: number[];
}

/** A FAISS inner-product index whose every native call is checked first. */
export class GuardedIndex {
  private constructor(
    private readonly native: NativeIndex,
    readonly dim: number,
    readonly factory: string,
  ) {}

  static create(dim: number, factory: string): GuardedIndex {
    if (!Number.isInteger(dim) || dim < 1 || dim > MAX_DIM) throw createError('INVALID_INPUT', `FAISS: bad dimension ${dim}`);
    if (!FACTORY_RE.test(factory)) throw createError('CONFIG_INVALID', `QUIN_FAISS_FACTORY: "${factory}" is not a FAISS factory string`);
    const faiss = loadFaiss();
    let native: NativeIndex;
    try {
      native = faiss.Index.fromFactory(dim, factory, faiss.MetricType.METRIC_INNER_PRODUCT);
    } catch (e) {
      throw createError('CONFIG_INVALID', `QUIN_FAISS_FACTORY: FAISS rejected "${factory}": ${(e as Error).message}`);
    }
    return new GuardedIndex(native, dim, factory);
  }

  /** Reads an index file written by `toBuffer`; its dimension must be the one expected. */
  static read(file: string, dim: number, factory: string): GuardedIndex {
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch {
      throw createError('INDEX_UNAVAILABLE', `FAISS index file ${file} is missing`);
    }
    if (size === 0) throw createError('INDEX_CORRUPT', `FAISS index file ${file} is empty`);
    let native: NativeIndex;
    try {
      native = loadFaiss().Index.read(file);
    } catch (e) {
      throw createError('INDEX_CORRUPT', `FAISS could not read ${file}: ${(e as Error).message}`);
    }
    const got = native.getDimension();
    if (got !== dim) throw createError('INDEX_CORRUPT', `FAISS index ${file} has dimension ${got}, the encoder has ${dim}`);
    return new GuardedIndex(native, dim, factory);
  }

  get ntotal(): number {
    return this.native.ntotal();
  }

  get isTrained(): boolean {
    return this.native.isTrained();
  }

  /** Trains when the index type needs it; refuses (instead of aborting) with too few points. */
  train(vectors: readonly Float32Array[]): void {
    if (this.native.isTrained()) return;
    const need = minTrainingPoints(this.factory);
    if (vectors.length < need) throw createError('INVALID_INPUT', `FAISS "${this.factory}" needs at least ${need} training vectors, got ${vectors.length}`);
    checkVectors(vectors, this.dim, 'FAISS train');
    this.native.train(flatten(vectors, this.dim));
  }

  add(vectors: readonly Float32Array[]): void {
    if (vectors.length === 0) return;
    if (!this.native.isTrained()) throw createError('INTERNAL', `FAISS "${this.factory}" is not trained: cannot add`);
    checkVectors(vectors, this.dim, 'FAISS add');
    for (let i = 0; i < vectors.length; i += ADD_CHUNK) this.native.add(flatten(vectors.slice(i, i + ADD_CHUNK), this.dim));
  }

  /** Top k by inner product; fewer when the index holds fewer. Labels are insertion positions. */
  search(query: Float32Array, k: number): SearchOut {
    checkVectors([query], this.dim, 'FAISS search');
    const n = this.native.ntotal();
    if (n === 0 || !Number.isFinite(k) || k < 1) return { labels: [], scores: [] };
    if (!this.native.isTrained()) throw createError('INDEX_UNAVAILABLE', `FAISS "${this.factory}" is not trained`);
    const kk = Math.min(Math.floor(k), n);
    const r = this.native.search(Array.from(query), kk);
    const labels: number[] = [];
    const scores: number[] = [];
    for (let i = 0; i < r.labels.length; i++) {
      if (r.labels[i]! < 0) continue; // FAISS pads with -1 when it finds fewer than k
      labels.push(r.labels[i]!);
      scores.push(r.distances[i]!);
    }
    return { labels, scores };
  }

  toBuffer(): Buffer {
    return this.native.toBuffer();
  }
}
