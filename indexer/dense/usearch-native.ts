/**
 * USearch (npm `usearch`, its prebuilt N-API binary) as a dense layout: an HNSW graph over vectors
 * stored as f16 (or i8/f32), cosine metric. Factory strings `usearch:HNSW<M>,<scalar>` (e.g.
 * `usearch:HNSW16,f16`). Keys are the insertion positions, as FAISS labels are, so the position map,
 * tombstones and checkpoints of sync.ts work unchanged. Chosen over FAISS HNSW (which built 100k in
 * 632 s here) and USearch i8 (whose fixed-range int8 code caps recall@10 near 0.93 on our 256-d
 * vectors) by the curve in docs/benchmarks.md.
 *
 * A served index is memory-mapped (`view`), not read into the heap: the OS pages in what searches
 * touch. It is mapped and searched in a thread of its own (usearch-thread.ts). An index that will be
 * extended is loaded whole (`load`) here, since a viewed one is read-only.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { createError } from '../../lib/errors';
import { createLogger } from '../../lib/log';
import { checkVectors, writeIndexFile, type SearchOut } from './faiss-native';
import { ThreadView, type UsearchConfig } from './usearch-thread';

const log = createLogger('dense');

interface NativeUsearch {
  add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
  search(vector: Float32Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array };
  size(): number;
  save(file: string): void;
  load(file: string): void;
  view(file: string): void;
}

type UsearchModule = {
  Index: new (config: UsearchConfig) => NativeUsearch;
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
  /**
   * A served (read-only) index lives in the search thread (usearch-thread.ts); `inProcess` is the
   * binding's own object: the index being built or extended, or a served one mapped here when the
   * thread cannot serve it.
   */
  private constructor(
    private inProcess: NativeUsearch | null,
    private thread: ThreadView | null,
    readonly dim: number,
    readonly factory: string,
    private file: string | null,
    private expansionSearch: number,
  ) {}

  private static config(dim: number, factory: string, expansionSearch: number): UsearchConfig {
    const { connectivity, quantization } = parse(factory);
    return {
      metric: 'cos',
      dimensions: dim,
      connectivity,
      quantization,
      expansion_add: USEARCH_EXPANSION_ADD,
      expansion_search: expansionSearch,
    };
  }

  private static make(dim: number, factory: string, expansionSearch: number): NativeUsearch {
    return new (loadUsearch().Index)(UsearchIndex.config(dim, factory, expansionSearch));
  }

  static create(dim: number, factory: string): UsearchIndex {
    if (!Number.isInteger(dim) || dim < 1 || dim > 65_536) throw createError('INVALID_INPUT', `USearch: bad dimension ${dim}`);
    return new UsearchIndex(UsearchIndex.make(dim, factory, USEARCH_EXPANSION_SEARCH), null, dim, factory, null, USEARCH_EXPANSION_SEARCH);
  }

  /** Opens a file written by `writeFile`: memory-mapped in the search thread (`writable` false) or loaded here to be extended. */
  static read(file: string, dim: number, factory: string, writable = false): UsearchIndex {
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch {
      throw createError('INDEX_UNAVAILABLE', `USearch index file ${file} is missing`);
    }
    if (size === 0) throw createError('INDEX_CORRUPT', `USearch index file ${file} is empty`);
    loadUsearch();
    const ef = USEARCH_EXPANSION_SEARCH;
    try {
      if (!writable) return new UsearchIndex(null, ThreadView.open(file, UsearchIndex.config(dim, factory, ef)), dim, factory, file, ef);
      const native = UsearchIndex.make(dim, factory, ef);
      native.load(file);
      return new UsearchIndex(native, null, dim, factory, null, ef);
    } catch (e) {
      throw createError('INDEX_CORRUPT', `USearch could not read ${file}: ${(e as Error).message}`);
    }
  }

  /** The index as the binding serves it in this thread: mapped here when the search thread has failed. */
  private native(): NativeUsearch {
    if (this.inProcess) return this.inProcess;
    const native = UsearchIndex.make(this.dim, this.factory, this.expansionSearch);
    native.view(this.file!);
    this.inProcess = native;
    this.thread?.close();
    this.thread = null;
    return native;
  }

  /** The thread's view while it serves. */
  private served(): ThreadView | null {
    if (this.thread?.failed) {
      log.warn('the dense search thread failed: searching in the process', { file: this.file });
      this.thread = null;
    }
    return this.thread;
  }

  get ntotal(): number {
    return this.thread ? this.thread.size : this.native().size();
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
    this.native().add(keys, packed, 0);
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
    const thread = this.served();
    if (thread) {
      this.thread = ThreadView.open(this.file, UsearchIndex.config(this.dim, this.factory, value));
      thread.close();
    } else {
      const native = UsearchIndex.make(this.dim, this.factory, value);
      native.view(this.file);
      this.inProcess = native;
    }
    this.expansionSearch = value;
    return true;
  }

  writeFile(file: string): number {
    return writeIndexFile(file, 'USearch', (tmp) => this.native().save(tmp));
  }

  private checked(query: Float32Array, k: number): number {
    checkVectors([query], this.dim, 'USearch search');
    const n = this.ntotal;
    return n === 0 || !Number.isFinite(k) || k < 1 ? 0 : Math.min(Math.floor(k), n);
  }

  /** Top k by cosine (1 − the cosine distance), positions as labels; one thread (a search is one request's work). */
  search(query: Float32Array, k: number): SearchOut {
    const want = this.checked(query, k);
    if (want === 0) return { labels: [], scores: [] };
    const thread = this.served();
    if (thread) {
      try {
        return toSearchOut(thread.search(query, want));
      } catch (e) {
        if (!thread.failed) throw e;
      }
    }
    return toSearchOut(this.native().search(query, want, 1));
  }

  /** As `search`, in the search thread while the caller goes on (beside BM25 on the other core); in this thread when it cannot. */
  async searchAsync(query: Float32Array, k: number): Promise<SearchOut> {
    const want = this.checked(query, k);
    const thread = want ? this.served() : null;
    if (thread) {
      try {
        return toSearchOut(await thread.searchAsync(query, want));
      } catch (e) {
        if (!thread.failed) throw e;
      }
    }
    // Nothing to search, or the thread is gone: `search` answers here.
    return this.search(query, k);
  }

  /** Releases the thread's map of the file (a reader replacing its checkpoint). */
  close(): void {
    this.thread?.close();
    this.thread = null;
  }
}

function toSearchOut(r: { keys: BigUint64Array; distances: Float32Array }): SearchOut {
  const labels: number[] = new Array<number>(r.keys.length);
  const scores: number[] = new Array<number>(r.keys.length);
  for (let i = 0; i < r.keys.length; i++) {
    labels[i] = Number(r.keys[i]);
    scores[i] = 1 - r.distances[i]!;
  }
  return { labels, scores };
}
