/**
 * A served USearch index searched in a worker thread of its own, for two reasons measured at 1M
 * snippets: the HNSW walk (17 ms at p50, efSearch 1536) held the event loop, and it could not overlap
 * the BM25 search (8 ms, JavaScript on the main thread) of the same query. In the thread the dense
 * walk runs beside BM25 on the second core.
 *
 * The thread owns the only memory map of the file (the process does not map it too, which would count
 * the touched pages twice in its RSS). Calls come in two forms: `searchAsync` for the pipeline, and
 * synchronous ones (open, `search`) that block on an Atomics wait for the thread's answer, for the
 * callers that have always been synchronous (the index surface, bench/, verify).
 *
 * The thread is plain JavaScript that requires usearch from the project's node_modules (as
 * lib/models/ort-thread.ts does), so it works the same under the CLI, the tests and Next.js.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { projectRoot } from '../../lib/paths';
import { bestOf, f16Cosines, f16Table, freshBest, FRESH_ROWS, unitRows } from './f16-rows';

/** What the binding's Index constructor takes. */
export interface UsearchConfig {
  metric: string;
  dimensions: number;
  connectivity: number;
  quantization: string;
  expansion_add: number;
  expansion_search: number;
}

export interface ThreadHits {
  keys: BigUint64Array;
  distances: Float32Array;
}

// The i8+f16 layout's scoring runs here as in the process: the same functions, from their source.
const THREAD_CODE = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const { Index } = require(workerData.usearchPath);
const syncPort = workerData.syncPort;
const signal = new Int32Array(workerData.signal);
const f16Table = ${f16Table.toString()};
const f16Cosines = ${f16Cosines.toString()};
const bestOf = ${bestOf.toString()};
const unitRows = ${unitRows.toString()};
const freshBest = ${freshBest.toString()};
const F16 = f16Table();
const views = new Map();
// A view's f16 rows, read a row at a time from their file (opened with the view).
function rowReader(v, dim) {
  if (v.buf === null) {
    v.buf = Buffer.alloc(dim * 2);
    v.bits = new Uint16Array(v.buf.buffer, v.buf.byteOffset, dim);
  }
  const len = dim * 2;
  return (pos) => {
    if (fs.readSync(v.fd, v.buf, 0, len, pos * len) !== len) throw new Error(v.rows + ' was cut short');
    return v.bits;
  };
}
// The newest count rows of a view's file as unit vectors, read once when it is opened (every search scores them).
function freshRows(fd, rows, size, count, dim) {
  const from = Math.max(0, size - count);
  const bytes = Buffer.alloc((size - from) * dim * 2);
  if (bytes.length && fs.readSync(fd, bytes, 0, bytes.length, from * dim * 2) !== bytes.length) throw new Error(rows + ' was cut short');
  return { freshFrom: from, freshUnit: unitRows(new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2), F16, dim) };
}
function handle(m) {
  if (m.op === 'open') {
    const ix = new Index(m.config);
    ix.view(m.file);
    // The rows file is opened with the view, as the graph is mapped with it: the indexer deletes a
    // replaced checkpoint's files, and a reader still answering from it while the next one loads
    // reads them through what it holds (opened at the first search, it was gone: ENOENT).
    const fd = m.rows ? fs.openSync(m.rows, 'r') : null;
    const size = ix.size();
    const fresh = fd !== null ? freshRows(fd, m.rows, size, m.fresh || 0, m.config.dimensions) : { freshFrom: size, freshUnit: null };
    views.set(m.handle, { ix, rows: m.rows || null, fd, buf: null, bits: null, size, ...fresh });
    return { size };
  }
  if (m.op === 'close') {
    const v = views.get(m.handle);
    views.delete(m.handle);
    if (v && v.fd !== null) fs.closeSync(v.fd);
    return {};
  }
  const v = views.get(m.handle);
  if (!v) throw new Error('no such index in the search thread: ' + m.handle);
  const r = v.ix.search(m.query, m.k, 1);
  if (m.rescore) {
    const walk = Array.from(r.keys, Number).filter((l) => l < v.freshFrom);
    const scores = f16Cosines(rowReader(v, m.rescore.length), F16, m.rescore, walk);
    const fresh = freshBest(m.rescore, v.freshUnit, v.freshFrom, scores, m.want);
    const best = bestOf(walk.concat(fresh.labels), scores.concat(fresh.scores), m.want);
    return { labels: Float64Array.from(best.labels), scores: Float64Array.from(best.scores) };
  }
  // Copies in the thread's own buffers: the binding's may not be transferable.
  return { keys: new BigUint64Array(r.keys), distances: new Float32Array(r.distances) };
}
function answer(m) {
  let reply;
  try {
    reply = { id: m.id, ...handle(m) };
  } catch (e) {
    reply = { id: m.id, error: e && e.message ? e.message : String(e) };
  }
  const transfer = ['keys', 'distances', 'labels', 'scores'].filter((k) => reply[k]).map((k) => reply[k].buffer);
  if (m.sync) {
    syncPort.postMessage(reply, transfer);
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  } else parentPort.postMessage(reply, transfer);
}
parentPort.on('message', answer);
`;

/** How long a synchronous call waits for the thread before it gives up (a stuck thread is a fault, not a hang). */
const SYNC_TIMEOUT_MS = 60_000;

/** The thread's answer; a search scored again with f16 rows answers with `labels` and `scores` (cosines). */
type Reply = { id: number; error?: string; size?: number; labels?: Float64Array; scores?: Float64Array } & Partial<ThreadHits>;

class SearchThread {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly syncPort: MessagePort;
  private readonly worker: Worker;
  dead: Error | null = null;

  constructor() {
    const usearchPath = createRequire(path.join(projectRoot(), 'package.json')).resolve('usearch');
    const { port1, port2 } = new MessageChannel();
    this.syncPort = port1;
    this.worker = new Worker(THREAD_CODE, {
      eval: true,
      workerData: { usearchPath, syncPort: port2, signal: this.signal.buffer },
      transferList: [port2],
    });
    this.worker.on('message', (m: Reply) => {
      const call = this.pending.get(m.id);
      if (!call) return;
      this.pending.delete(m.id);
      if (!this.pending.size) this.worker.unref();
      if (m.error !== undefined) call.reject(new Error(m.error));
      else call.resolve(m);
    });
    const fail = (e: Error) => {
      this.dead ??= e;
      for (const call of this.pending.values()) call.reject(e);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the dense search thread stopped (exit ${code})`)));
    // An idle thread never keeps a process alive.
    this.worker.unref();
  }

  call(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<Reply> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  async stop(): Promise<void> {
    this.dead ??= new Error('the dense search thread was stopped');
    await this.worker.terminate();
  }

  callSync(message: Record<string, unknown>): Reply {
    if (this.dead) throw this.dead;
    const id = this.nextId++;
    Atomics.store(this.signal, 0, 0);
    this.worker.postMessage({ ...message, id, sync: true });
    if (Atomics.wait(this.signal, 0, 0, SYNC_TIMEOUT_MS) === 'timed-out') {
      this.dead = new Error(`the dense search thread did not answer in ${SYNC_TIMEOUT_MS / 1000} s`);
      void this.worker.terminate();
      throw this.dead;
    }
    const got = receiveMessageOnPort(this.syncPort)?.message as Reply | undefined;
    if (!got || got.id !== id) throw new Error('the dense search thread answered out of turn');
    if (got.error !== undefined) throw new Error(got.error);
    return got;
  }
}

let thread: SearchThread | null = null;
let nextHandle = 1;

/** The process's search thread, started on first use and started again after it died. */
function searchThread(): SearchThread {
  if (!thread || thread.dead) thread = new SearchThread();
  return thread;
}

/**
 * Stops the search thread, as if it had died (its test; an idle thread never keeps a process alive, so
 * nothing needs it at shutdown). Indexes it served map their files in the process from then on; an
 * index opened later starts a new thread.
 */
export async function stopSearchThread(): Promise<void> {
  const t = thread;
  thread = null;
  await t?.stop();
}

/** One file mapped in the search thread. */
export class ThreadView {
  private closed = false;

  private constructor(
    private readonly owner: SearchThread,
    private readonly handle: number,
    readonly size: number,
  ) {}

  /**
   * Maps `file` in the thread (synchronously: the caller learns at once whether it can be read).
   * `rows`: the f16 rows file of an `i8+f16` graph, which `searchScoredAsync` scores its walk and its
   * newest FRESH_ROWS positions with (those rows read into the thread's memory here).
   */
  static open(file: string, config: UsearchConfig, rows: string | null = null): ThreadView {
    const owner = searchThread();
    const handle = nextHandle++;
    const { size } = owner.callSync({ op: 'open', handle, file, config, rows, fresh: rows ? FRESH_ROWS : 0 });
    return new ThreadView(owner, handle, size ?? 0);
  }

  /** Whether the thread serving this view is gone (the caller then reads the file itself). */
  get failed(): boolean {
    return this.owner.dead !== null;
  }

  search(query: Float32Array | Int8Array, k: number): ThreadHits {
    const r = this.owner.callSync({ op: 'search', handle: this.handle, query, k });
    return { keys: r.keys!, distances: r.distances! };
  }

  async searchAsync(query: Float32Array | Int8Array, k: number): Promise<ThreadHits> {
    // A copy crosses to the thread: the caller keeps its vector.
    const r = await this.owner.call({ op: 'search', handle: this.handle, query: query.slice(), k });
    return { keys: r.keys!, distances: r.distances! };
  }

  /**
   * An `i8+f16` search whole in the thread: the walk over `probe` for `k`, its candidates and the
   * newest FRESH_ROWS positions scored with the f16 rows and the best `want` kept (so the caller's
   * thread reads no rows).
   */
  async searchScoredAsync(probe: Int8Array, k: number, query: Float32Array, want: number): Promise<{ labels: number[]; scores: number[] }> {
    const r = await this.owner.call({ op: 'search', handle: this.handle, query: probe.slice(), k, rescore: query.slice(), want });
    return { labels: Array.from(r.labels!), scores: Array.from(r.scores!) };
  }

  /** Unmaps the file in the thread (a replaced checkpoint's file is then no longer held). */
  close(): void {
    if (this.closed || this.owner.dead) return;
    this.closed = true;
    this.owner.call({ op: 'close', handle: this.handle }).catch(() => undefined);
  }
}
