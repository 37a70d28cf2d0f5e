/**
 * USearch (npm `usearch`, its prebuilt N-API binary) as a dense layout: an HNSW graph, cosine metric.
 * Factory strings `usearch:HNSW<M>,<scalar>` (e.g. `usearch:HNSW16,f16`: the vectors stored as f16,
 * or i8/f32), or `usearch:HNSW<M>,i8+f16`, the default: the graph walked over int8 codes of our own
 * (scaled per vector, f16-rows.ts) and its candidates scored again with f16 vectors kept in a file
 * beside it. USearch's own int8 cast (the unit vector times 127) caps recall@10 near 0.93 on our
 * 256-d vectors; scored again, the int8 walk keeps the f16 graph's recall for less time a search,
 * less time to build and half the bytes a vector in the graph (docs/benchmarks.md). Keys are the insertion
 * positions, as FAISS labels are, so the position map, tombstones and checkpoints of sync.ts work
 * unchanged. Chosen over FAISS HNSW (which built 100k in 632 s here) by the same curve.
 *
 * A served index is memory-mapped (`view`), not read into the heap: the OS pages in what searches
 * touch. It is mapped and searched in a thread of its own (usearch-thread.ts). An index that will be
 * extended is loaded whole (`load`) here, since a viewed one is read-only; an `i8+f16` index's f16
 * rows are read from their file either way, a row at a time (f16-rows.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { createError } from '../../lib/errors';
import { createLogger } from '../../lib/log';
import { checkVectors, packRows, writeIndexFile, type SearchOut } from './faiss-native';
import { bestOf, F16_SUFFIX, F16Rows, freshBest, int8Codes } from './f16-rows';
import { ThreadView, type UsearchConfig } from './usearch-thread';

const log = createLogger('dense');

interface NativeUsearch {
  add(keys: BigUint64Array, vectors: Float32Array | Int8Array, threads?: number): void;
  search(vector: Float32Array | Int8Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array };
  size(): number;
  save(file: string): void;
  load(file: string): void;
  view(file: string): void;
}

type UsearchModule = {
  Index: new (config: UsearchConfig) => NativeUsearch;
};

const FACTORY_RE = /^usearch:HNSW(\d{1,3}),(f32|f16|bf16|i8)(\+f16)?$/;

/**
 * Candidates kept while building (efConstruction): 128 built 100k in ~40 s on 2 busy cores; the
 * recall curve at search time is in docs/benchmarks.md.
 */
export const USEARCH_EXPANSION_ADD = 128;
/** Candidates kept while searching when k is smaller (a search for k keeps at least k). */
export const USEARCH_EXPANSION_SEARCH = 64;

/**
 * An `i8+f16` search asks the int8 walk for this many times k and keeps the best k once scored with
 * the f16 rows. Asked for k alone, the last places of its list are the int8 code's noise: the 500th
 * cosine fell ~0.01 below the exact 500th, and score fusion, which scales each list by its last
 * score, moved the hybrid top 100 (hybrid recall@100 0.963 at 100k, 0.916 at 1M, against 0.994 /
 * 0.957 for the f16 graph). Widened 1.5×, the 500th is the exact one (to 1e-3) and hybrid recall@100
 * at 100k is 0.994 again.
 */
export const RESCORE_WIDEN = 1.5;

/** The layout `auto` picks above FAISS_EXACT_MAX snippets (sync.ts chooseFactory). */
export const USEARCH_DEFAULT = 'usearch:HNSW16,i8+f16';

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

function parse(factory: string): { connectivity: number; quantization: string; rescore: boolean } {
  const m = FACTORY_RE.exec(factory);
  if (!m || (m[3] && m[2] !== 'i8'))
    throw createError('CONFIG_INVALID', `dense factory: "${factory}" is not usearch:HNSW<M>,<f32|f16|bf16|i8> or usearch:HNSW<M>,i8+f16`);
  const connectivity = Number(m[1]);
  if (connectivity < 4 || connectivity > 128)
    throw createError('CONFIG_INVALID', `dense factory: HNSW connectivity ${connectivity} is not 4–128`);
  return { connectivity, quantization: m[2]!, rescore: Boolean(m[3]) };
}

/** A USearch HNSW index with positions as keys, its calls checked first as GuardedIndex's are. */
export class UsearchIndex {
  /** Searches sent to the thread and not yet scored again (their rows stay open until they are). */
  private inFlight = 0;
  private closing = false;
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
    /** `i8+f16`: the f16 vectors its candidates are scored again with; null for the other layouts. */
    private readonly rows: F16Rows | null,
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
    const native = UsearchIndex.make(dim, factory, USEARCH_EXPANSION_SEARCH);
    const rows = parse(factory).rescore ? new F16Rows(dim) : null;
    return new UsearchIndex(native, null, dim, factory, null, USEARCH_EXPANSION_SEARCH, rows);
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
    let ix: UsearchIndex;
    try {
      if (!writable) {
        const rows = parse(factory).rescore ? file + F16_SUFFIX : null;
        ix = new UsearchIndex(null, ThreadView.open(file, UsearchIndex.config(dim, factory, ef), rows), dim, factory, file, ef, null);
      } else {
        const native = UsearchIndex.make(dim, factory, ef);
        native.load(file);
        ix = new UsearchIndex(native, null, dim, factory, null, ef, null);
      }
    } catch (e) {
      throw createError('INDEX_CORRUPT', `USearch could not read ${file}: ${(e as Error).message}`);
    }
    if (!parse(factory).rescore) return ix;
    try {
      return ix.withRows(F16Rows.open(file + F16_SUFFIX, dim, ix.ntotal));
    } catch (e) {
      ix.close();
      throw e;
    }
  }

  private withRows(rows: F16Rows): UsearchIndex {
    return new UsearchIndex(this.inProcess, this.thread, this.dim, this.factory, this.file, this.expansionSearch, rows);
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
    checkVectors(vectors, this.dim, 'USearch add');
    for (let i = 0; i < vectors.length; i++) keys[i] = BigInt(first + i);
    this.native().add(keys, this.rows ? int8Codes(vectors, this.dim) : packRows(vectors, this.dim), 0);
    this.rows?.add(vectors);
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
      this.thread = ThreadView.open(
        this.file,
        UsearchIndex.config(this.dim, this.factory, value),
        this.rows ? this.file + F16_SUFFIX : null,
      );
      thread.close();
    } else {
      const native = UsearchIndex.make(this.dim, this.factory, value);
      native.view(this.file);
      this.inProcess = native;
    }
    this.expansionSearch = value;
    return true;
  }

  /** Writes the graph to `file` (and an `i8+f16` index's vectors beside it first, so a graph on disk always has them). */
  writeFile(file: string): number {
    this.rows?.write(file + F16_SUFFIX);
    return writeIndexFile(file, 'USearch', (tmp) => this.native().save(tmp));
  }

  private checked(query: Float32Array, k: number): number {
    checkVectors([query], this.dim, 'USearch search');
    const n = this.ntotal;
    return n === 0 || !Number.isFinite(k) || k < 1 ? 0 : Math.min(Math.floor(k), n);
  }

  /** What the graph is searched with: our own int8 codes of the query for an `i8+f16` index. */
  private probe(query: Float32Array): Float32Array | Int8Array {
    return this.rows ? int8Codes([query], this.dim) : query;
  }

  /**
   * The graph's hits as labels and cosines: an `i8+f16` index's, with its newest FRESH_ROWS positions
   * (f16-rows.ts says why), scored again with the f16 vectors and reordered.
   */
  private hits(query: Float32Array, r: { keys: BigUint64Array; distances: Float32Array }, k: number): SearchOut {
    const out = toSearchOut(r);
    if (!this.rows) return out;
    const { from, unit } = this.rows.fresh();
    const walk = out.labels.filter((l) => l < from);
    const scores = this.rows.cosines(query, walk);
    const fresh = freshBest(query, unit, from, scores, k);
    return bestOf([...walk, ...fresh.labels], [...scores, ...fresh.scores], k);
  }

  /** How many the graph is asked for to return k: an `i8+f16` walk's list is widened so that its last places are right once scored again. */
  private wide(k: number): number {
    return this.rows ? Math.min(this.ntotal, Math.ceil(k * RESCORE_WIDEN)) : k;
  }

  /** Top k by cosine (1 − the cosine distance), positions as labels; one thread (a search is one request's work). */
  search(query: Float32Array, k: number): SearchOut {
    const want = this.checked(query, k);
    if (want === 0) return { labels: [], scores: [] };
    const thread = this.served();
    if (thread) {
      try {
        return this.hits(query, thread.search(this.probe(query), this.wide(want)), want);
      } catch (e) {
        if (!thread.failed) throw e;
      }
    }
    return this.hits(query, this.native().search(this.probe(query), this.wide(want), 1), want);
  }

  /** As `search`, in the search thread while the caller goes on (beside BM25 on the other core); in this thread when it cannot. */
  async searchAsync(query: Float32Array, k: number): Promise<SearchOut> {
    const want = this.checked(query, k);
    const thread = want ? this.served() : null;
    if (thread) {
      try {
        this.inFlight++;
        try {
          // An i8+f16 walk is scored again in the thread too: this thread, busy with BM25, reads no rows.
          if (this.rows) return await thread.searchScoredAsync(this.probe(query) as Int8Array, this.wide(want), query, want);
          return this.hits(query, await thread.searchAsync(this.probe(query), this.wide(want)), want);
        } finally {
          if (--this.inFlight === 0 && this.closing) this.rows?.close();
        }
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
    // A search already sent to the thread is answered first, and then scored with these rows.
    if (this.inFlight) this.closing = true;
    else this.rows?.close();
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
