/**
 * USearch (npm `usearch`, its prebuilt N-API binary) as a dense layout: an HNSW graph over vectors
 * stored as f16 (or i8/f32), cosine metric. Factory strings `usearch:HNSW<M>,<scalar>` (e.g.
 * `usearch:HNSW16,f16`). Keys are the insertion positions, as FAISS labels are, so the position map,
 * tombstones and checkpoints of sync.ts work unchanged. Chosen over FAISS HNSW (which built 100k in
 * 632 s here) and USearch i8 (whose fixed-range int8 code caps recall@10 near 0.93 on our 256-d
 * vectors) by the curve in docs/benchmarks.md.
 *
 * A served index is memory-mapped (`view`), not read into the heap: the OS pages in what searches
 * touch. An index that will be extended is loaded whole (`load`), since a viewed one is read-only.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { createError } from '../../lib/errors';
import { checkVectors, writeIndexFile, type SearchOut } from './faiss-native';

interface NativeUsearch {
  add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(vector: Float32Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array };
  size(): number;
  save(file: string): void;
  load(file: string): void;
  view(file: string): void;
}

type UsearchModule = {
  Index: new (config: {
    metric: string;
    dimensions: number;
    connectivity: number;
    quantization: string;
    expansion_add: number;
    expansion_search: number;
  }) => NativeUsearch;
};

const FACTORY_RE = /^usearch:HNSW(\d{1,3}),(f32|f16|bf16|i8)$/;

/**
 * Candidates kept while building (efConstruction): 128 built 100k in ~40 s on 2 busy cores; the
 * recall curve at search time is in docs/benchmarks.md.
 */
export const USEARCH_EXPANSION_ADD = 128;
/** Candidates kept while searching when k is smaller (a search for k keeps at least k). */
export const USEARCH_EXPANSION_SEARCH = 64;

/** The layout `auto` picks above FAISS_EXACT_MAX snippets (sync.ts chooseFactory). */
export const USEARCH_DEFAULT = 'usearch:HNSW16,f16';

let loaded: UsearchModule | undefined;

export function isUsearchFactory(factory: string): boolean {
  return factory.startsWith('usearch:');
}

function loadUsearch(): UsearchModule {
  try {
    // The comment keeps Next.js (Turbopack) from bundling the native module.
    loaded ??= createRequire(import.meta.url)(/* turbopackIgnore: true */ 'usearch') as UsearchModule;
    return loaded;
  } catch (e) {
    throw createError('INDEX_UNAVAILABLE', `USearch not available (${(e as Error).message.split('\n')[0]}); run npm install`);
  }
}

function parse(factory: string): { connectivity: number; quantization: string } {
  const m = FACTORY_RE.exec(factory);
  if (!m) throw createError('CONFIG_INVALID', `dense factory: "${factory}" is not usearch:HNSW<M>,<f32|f16|bf16|i8>`);
  const connectivity = Number(m[1]);
  if (connectivity < 4 || connectivity > 128)
    throw createError('CONFIG_INVALID', `dense factory: HNSW connectivity ${connectivity} is not 4–128`);
  return { connectivity, quantization: m[2]! };
}

/** A USearch HNSW index with positions as keys, its calls checked first as GuardedIndex's are. */
export class UsearchIndex {
  private constructor(
    private native: NativeUsearch,
    readonly dim: number,
    readonly factory: string,
    private file: string | null,
    private expansionSearch: number,
  ) {}

  private static make(dim: number, factory: string, expansionSearch: number): NativeUsearch {
    const { connectivity, quantization } = parse(factory);
    return new (loadUsearch().Index)({
      metric: 'cos',
      dimensions: dim,
      connectivity,
      quantization,
      expansion_add: USEARCH_EXPANSION_ADD,
      expansion_search: expansionSearch,
    });
  }

  static create(dim: number, factory: string): UsearchIndex {
    if (!Number.isInteger(dim) || dim < 1 || dim > 65_536) throw createError('INVALID_INPUT', `USearch: bad dimension ${dim}`);
    return new UsearchIndex(UsearchIndex.make(dim, factory, USEARCH_EXPANSION_SEARCH), dim, factory, null, USEARCH_EXPANSION_SEARCH);
  }

  /** Opens a file written by `writeFile`: memory-mapped (`writable` false) or loaded to be extended. */
  static read(file: string, dim: number, factory: string, writable = false): UsearchIndex {
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch {
      throw createError('INDEX_UNAVAILABLE', `USearch index file ${file} is missing`);
    }
    if (size === 0) throw createError('INDEX_CORRUPT', `USearch index file ${file} is empty`);
    const native = UsearchIndex.make(dim, factory, USEARCH_EXPANSION_SEARCH);
    try {
      if (writable) native.load(file);
      else native.view(file);
    } catch (e) {
      throw createError('INDEX_CORRUPT', `USearch could not read ${file}: ${(e as Error).message}`);
    }
    return new UsearchIndex(native, dim, factory, writable ? null : file, USEARCH_EXPANSION_SEARCH);
  }

  get ntotal(): number {
    return this.native.size();
  }

  /** HNSW needs no training. */
  get isTrained(): boolean {
    return true;
  }

  train(): void {}

  /** Appends vectors under the next positions (ntotal, ntotal + 1, …). */
  add(vectors: readonly Float32Array[]): void {
    if (vectors.length === 0) return;
    if (this.file) throw createError('INTERNAL', 'USearch: a memory-mapped index is read-only');
    const first = this.ntotal;
    const keys = new BigUint64Array(vectors.length);
    const packed = new Float32Array(vectors.length * this.dim);
    checkVectors(vectors, this.dim, 'USearch add');
    vectors.forEach((v, i) => {
      keys[i] = BigInt(first + i);
      packed.set(v, i * this.dim);
    });
    this.native.add(keys, packed, 0);
  }

  /**
   * `efSearch`: candidates kept per search (a search for k keeps at least k). The binding fixes it
   * when the index is made, so a mapped index is mapped again with the new value; one built in
   * memory keeps its own (false).
   */
  setSearchParam(name: 'nprobe' | 'efSearch', value: number): boolean {
    if (!Number.isInteger(value) || value < 1)
      throw createError('CONFIG_INVALID', `USearch ${name} must be a positive integer, got ${value}`);
    if (name !== 'efSearch' || !this.file) return false;
    if (value === this.expansionSearch) return true;
    const native = UsearchIndex.make(this.dim, this.factory, value);
    native.view(this.file);
    this.native = native;
    this.expansionSearch = value;
    return true;
  }

  writeFile(file: string): number {
    return writeIndexFile(file, 'USearch', (tmp) => this.native.save(tmp));
  }

  /** Top k by cosine (1 − the cosine distance), positions as labels; one thread (a search is one request's work). */
  search(query: Float32Array, k: number): SearchOut {
    checkVectors([query], this.dim, 'USearch search');
    const n = this.ntotal;
    if (n === 0 || !Number.isFinite(k) || k < 1) return { labels: [], scores: [] };
    const r = this.native.search(query, Math.min(Math.floor(k), n), 1);
    const labels: number[] = new Array<number>(r.keys.length);
    const scores: number[] = new Array<number>(r.keys.length);
    for (let i = 0; i < r.keys.length; i++) {
      labels[i] = Number(r.keys[i]);
      scores[i] = 1 - r.distances[i]!;
    }
    return { labels, scores };
  }
}
