/**
 * An onnxruntime session in a worker thread of its own. onnxruntime-node runs inference on the
 * calling thread (its run() is synchronous behind a setImmediate): in the web server, one reranker
 * call over 30 passages held the event loop for up to 2.4 s under load, and /api/health, the pages'
 * shells and every refusal waited behind it (health took 1.9 s at the median under 20 clients). Here
 * the model runs in the thread; the process only tokenizes and reads the outputs. Calls to one model
 * run one after another in its thread, as they did in the process, so the numbers are the same.
 *
 * The thread is plain JavaScript (no TypeScript, no bundle): it requires onnxruntime-node from the
 * project's node_modules, so it works the same under the CLI, the tests and the Next.js server.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../paths';

/** A tensor as it crosses to and from the thread (onnxruntime's Tensor does not). */
export interface PlainTensor {
  type: string;
  data: Float32Array | BigInt64Array | Int32Array | Uint8Array;
  dims: readonly number[];
}

export type PlainOutputs = Record<string, PlainTensor>;

const THREAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ortPath);
ort.InferenceSession.create(workerData.onnxPath, workerData.options).then(
  (session) => {
    parentPort.postMessage({ ready: true, inputNames: session.inputNames, outputNames: session.outputNames });
    parentPort.on('message', async (m) => {
      if (m.release) {
        await session.release().catch(() => undefined);
        parentPort.postMessage({ released: true });
        return;
      }
      try {
        const feeds = {};
        for (const [name, t] of Object.entries(m.feeds)) feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
        const out = await session.run(feeds);
        const outputs = {};
        const transfer = [];
        for (const [name, t] of Object.entries(out)) {
          // A copy: the runtime's own buffer cannot be handed over.
          const data = t.data.slice();
          outputs[name] = { type: t.type, data, dims: t.dims };
          transfer.push(data.buffer);
        }
        parentPort.postMessage({ id: m.id, outputs }, transfer);
      } catch (e) {
        parentPort.postMessage({ id: m.id, error: e && e.message ? e.message : String(e) });
      }
    });
  },
  (e) => parentPort.postMessage({ ready: false, error: e && e.message ? e.message : String(e) }),
);
`;

type Reply = { id: number; outputs?: PlainOutputs; error?: string };

export class ThreadSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (o: PlainOutputs) => void; reject: (e: Error) => void }>();
  private dead: Error | null = null;

  private constructor(
    private readonly worker: Worker,
    readonly inputNames: readonly string[],
    readonly outputNames: readonly string[],
  ) {
    worker.on('message', (m: Reply) => {
      const call = this.pending.get(m.id);
      if (!call) return;
      this.pending.delete(m.id);
      if (!this.pending.size) worker.unref();
      if (m.outputs) call.resolve(m.outputs);
      else call.reject(new Error(m.error ?? 'the model thread answered nothing'));
    });
    const fail = (e: Error) => {
      this.dead = e;
      for (const call of this.pending.values()) call.reject(e);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the model's thread stopped (exit ${code})`)));
    // An idle model never keeps a process alive (a CLI run ends when its work does).
    worker.unref();
  }

  /** Opens `onnxPath` in a new thread; rejects with onnxruntime's own message when it cannot. */
  static async open(onnxPath: string, options: Record<string, unknown>): Promise<ThreadSession> {
    const ortPath = createRequire(path.join(projectRoot(), 'package.json')).resolve('onnxruntime-node');
    const worker = new Worker(THREAD_CODE, { eval: true, workerData: { ortPath, onnxPath, options } });
    const first = await new Promise<{ ready: boolean; error?: string; inputNames?: string[]; outputNames?: string[] }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the model's thread stopped while opening it (exit ${code})`)));
    });
    if (!first.ready) {
      await worker.terminate();
      throw new Error(first.error ?? 'onnxruntime could not open the model');
    }
    return new ThreadSession(worker, first.inputNames ?? [], first.outputNames ?? []);
  }

  run(feeds: Record<string, PlainTensor>): Promise<PlainOutputs> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, feeds });
    });
  }

  async release(): Promise<void> {
    if (this.dead) return;
    this.worker.ref();
    await new Promise<void>((resolve) => {
      const done = (m: { released?: boolean }) => {
        if (!m.released) return;
        this.worker.off('message', done);
        resolve();
      };
      this.worker.on('message', done);
      this.worker.postMessage({ release: true });
    });
    await this.worker.terminate();
  }
}
