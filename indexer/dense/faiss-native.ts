/**
 * faiss-node (built by scripts/setup.d/40-faiss.sh into vendor/faiss-build/) behind a guarded wrapper.
 * A FAISS C++ exception that the binding does not catch aborts the whole Node process (seen with `add`
 * on an untrained IVF index, `removeIds` on HNSW, `search` with k = 0, `write` to a missing folder), so
 * every call here checks its preconditions first and only the calls that cannot fail reach FAISS:
 * dimensions, finiteness, trained state, non-empty, 1 ≤ k ≤ ntotal. Data goes through the methods
 * that scripts/setup.d/40-faiss.sh adds to the binding: Float32Array in and out (no JS number arrays,
 * no copy of the whole index through a Buffer), search parameters (nprobe, efSearch), and a file
 * writer whose FAISS exceptions become JS errors; the caller renames the written file into place.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createError } from '../../lib/errors';
import { projectRoot } from '../../lib/paths';
import { writeAtomicWith } from '../files';

interface NativeIndex {
  ntotal(): number;
  getDimension(): number;
  isTrained(): boolean;
  addF32(x: Float32Array): void;
  trainF32(x: Float32Array): void;
  searchF32(x: Float32Array, k: number): { distances: Float32Array; labels: Int32Array };
  setParam(name: string, value: number): void;
  writeFile(file: string): void;
}

interface FaissModule {
  Index: {
    fromFactory(dims: number, descriptor: string, metric?: number): NativeIndex;
    read(fname: string): NativeIndex;
  };
  MetricType: { METRIC_INNER_PRODUCT: number };
}

const MAX_DIM = 65_536;

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
    const mod = createRequire(import.meta.url)(/* turbopackIgnore: true */ faissModulePath()) as FaissModule;
    const probe = mod.Index.fromFactory(1, 'Flat', mod.MetricType.METRIC_INNER_PRODUCT) as Partial<NativeIndex>;
    if (typeof probe.addF32 !== 'function' || typeof probe.setParam !== 'function')
      throw new Error("the binding lacks Quin's Float32Array methods (an older build)");
    loaded = mod;
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

/** Writes a native index with `save` atomically and durably (temp file, fsync, rename); returns its size. */
export function writeIndexFile(file: string, engine: string, save: (tmp: string) => void): number {
  writeAtomicWith(file, (tmp) => {
    try {
      save(tmp);
    } catch (e) {
      throw createError('INDEX_UNAVAILABLE', `${engine} could not write ${file}: ${(e as Error).message}`);
    }
  });
  return fs.statSync(file).size;
}

const FACTORY_RE = /^[A-Za-z0-9_,.+=x-]{1,100}$/;

/** Every vector has the index's dimension and finite values (checked before the native call, which would abort). */
export function checkVectors(vectors: readonly Float32Array[], dim: number, what: string): void {
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i]!;
    if (v.length !== dim) throw createError('INVALID_INPUT', `${what}: vector #${i} has dimension ${v.length}, index has ${dim}`);
    for (let j = 0; j < dim; j++) {
      if (!Number.isFinite(v[j])) throw createError('INVALID_INPUT', `${what}: vector #${i} is not finite`);
    }
  }
}

/** Rows side by side in one Float32Array (what the binding takes). */
export function packRows(vectors: readonly Float32Array[], dim: number): Float32Array {
  const out = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => out.set(v, i * dim));
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
    if (!FACTORY_RE.test(factory)) throw createError('CONFIG_INVALID', `FAISS factory: "${factory}" is not a FAISS factory string`);
    const faiss = loadFaiss();
    let native: NativeIndex;
    try {
      native = faiss.Index.fromFactory(dim, factory, faiss.MetricType.METRIC_INNER_PRODUCT);
    } catch (e) {
      throw createError('CONFIG_INVALID', `FAISS factory: FAISS rejected "${factory}": ${(e as Error).message}`);
    }
    return new GuardedIndex(native, dim, factory);
  }

  /** Reads an index file written by `writeFile`; its dimension must be the one expected. */
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
    if (vectors.length < need)
      throw createError('INVALID_INPUT', `FAISS "${this.factory}" needs at least ${need} training vectors, got ${vectors.length}`);
    checkVectors(vectors, this.dim, 'FAISS train');
    this.native.trainF32(packRows(vectors, this.dim));
  }

  add(vectors: readonly Float32Array[]): void {
    if (vectors.length === 0) return;
    if (!this.native.isTrained()) throw createError('INTERNAL', `FAISS "${this.factory}" is not trained: cannot add`);
    checkVectors(vectors, this.dim, 'FAISS add');
    this.native.addF32(packRows(vectors, this.dim));
  }

  /**
   * A search-time parameter (`nprobe` for IVF, `efSearch` for HNSW) when the index type has it;
   * false when it does not (FAISS's ParameterSpace rejects it).
   */
  setSearchParam(name: 'nprobe' | 'efSearch', value: number): boolean {
    if (!Number.isInteger(value) || value < 1)
      throw createError('CONFIG_INVALID', `FAISS ${name} must be a positive integer, got ${value}`);
    const applies = name === 'nprobe' ? /IVF/i.test(this.factory) : /HNSW/i.test(this.factory);
    if (!applies) return false;
    try {
      this.native.setParam(name, value);
      return true;
    } catch {
      return false;
    }
  }

  /** Writes the index to `file` atomically and durably (temp file, fsync, rename); returns its size. */
  writeFile(file: string): number {
    return writeIndexFile(file, 'FAISS', (tmp) => this.native.writeFile(tmp));
  }

  /** Top k by inner product; fewer when the index holds fewer. Labels are insertion positions. */
  search(query: Float32Array, k: number): SearchOut {
    checkVectors([query], this.dim, 'FAISS search');
    const n = this.native.ntotal();
    if (n === 0 || !Number.isFinite(k) || k < 1) return { labels: [], scores: [] };
    if (!this.native.isTrained()) throw createError('INDEX_UNAVAILABLE', `FAISS "${this.factory}" is not trained`);
    const kk = Math.min(Math.floor(k), n);
    const r = this.native.searchF32(query, kk);
    const labels: number[] = [];
    const scores: number[] = [];
    for (let i = 0; i < r.labels.length; i++) {
      if (r.labels[i]! < 0) continue; // FAISS pads with -1 when it finds fewer than k
      labels.push(r.labels[i]!);
      scores.push(r.distances[i]!);
    }
    return { labels, scores };
  }

  /** As `search`: FAISS answers on the calling thread (the index surface is the same for every layout). */
  async searchAsync(query: Float32Array, k: number): Promise<SearchOut> {
    return this.search(query, k);
  }

  /** Nothing is held outside the heap. */
  close(): void {}
}
