/**
 * The worker's indexing loop in a process of its own. Embedding is CPU work that holds the event loop
 * for a second or more per batch (more on a busy machine); in the crawler's process every step of a
 * crawl would wait behind it, and a feed added on the dashboard took a minute to be fetched. So the
 * worker runs its crawl loop itself and hands each indexing pass to a child process over IPC:
 *
 *   parent → child   {type:'start', config}   once, after the fork (the child uses the parent's settings)
 *   parent → child   {type:'run'}             one indexing pass
 *   child → parent   {type:'progress'}        headway (a batch written), for the heartbeat
 *   child → parent   {type:'done', summary} | {type:'done', error}
 *   parent → child   {type:'stop'}            cancel the pass in progress and exit
 *
 * The child exits when its parent goes (IPC disconnect), on {type:'stop'} or on SIGINT/SIGTERM. It has
 * FINISH_MS to finish the pass in progress and to index what is still pending (one last pass) — a stop
 * during a small increment (a feed's new articles) then leaves the indexes complete, and `quin index
 * --verify` clean — and past that the pass is cancelled at the indexer's next checkpoint (it is safe to
 * stop between batches: what is left is indexed at the next start). A child that dies is forked again
 * for the next pass; its failure is the failed pass's error.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Config } from '../../lib/config';
import { isBusyError } from '../../crawler';
import { createDb, type Db } from '../../lib/db/client';
import { createError, describeError, fromWire, toWire, type WireError } from '../../lib/errors';
import { createLogger } from '../../lib/log';
import { projectRoot } from '../../lib/paths';
import { lowerPriority } from '../../lib/priority';
import type { WorkerTask } from './worker';

type ToChild = { type: 'start'; config: Config } | { type: 'run' } | { type: 'stop' };
type ToParent = { type: 'progress' } | { type: 'done'; summary?: Record<string, unknown>; error?: WireError };

/** A database conflict that the same pass, run again, gets past (SQLite busy / busy snapshot, PostgreSQL serialisation). */
function transient(e: unknown): boolean {
  return isBusyError(e) || /Operation has timed out|\bP1008\b/.test(String((e as Error)?.message ?? e));
}

/** How long a pass in progress may go on after a stop before it is cancelled (at its next checkpoint). */
export const FINISH_MS = 10_000;
/** How long a child may take to stop after {type:'stop'} before it is killed (FINISH_MS, then a checkpoint). */
const STOP_GRACE_MS = 20_000;

function send(c: ChildProcess, m: ToChild): void {
  if (c.connected) c.send(m, (e) => e && undefined);
}

/** The parent's side: an index WorkerTask whose passes run in the child process. */
export function indexProcessTask(config: Config): WorkerTask {
  const log = createLogger('worker');
  let child: ChildProcess | null = null;
  const spawn = (): ChildProcess => {
    // The same launcher `npm start` uses for the worker: tsx registered, no set-up check.
    const c = fork(path.join(projectRoot(), 'scripts/start/worker.mjs'), ['--index-child'], { execArgv: [], stdio: 'inherit' });
    c.once('exit', () => {
      if (child === c) child = null;
    });
    // A message sent while the child is going fails with EPIPE; its exit is what reports the failure.
    c.on('error', (e) => log.debug('indexing process channel', { error: e.message }));
    send(c, { type: 'start', config });
    return c;
  };
  return {
    name: 'index',
    run(signal, progress) {
      const c = (child ??= spawn());
      return new Promise((resolve, reject) => {
        const cleanup = () => {
          c.off('message', onMessage);
          c.off('exit', onExit);
          signal.removeEventListener('abort', onAbort);
        };
        const onMessage = (m: ToParent) => {
          if (m.type === 'progress') return progress();
          cleanup();
          // The pass's error keeps its code across the process boundary (CONFLICT, CANCELLED, INDEX_UNAVAILABLE).
          if (m.error !== undefined) reject(fromWire(m.error));
          else resolve(m.summary ?? {});
        };
        const onExit = (code: number | null, sig: NodeJS.Signals | null) => {
          cleanup();
          reject(
            signal.aborted ? createError('CANCELLED', 'stopped') : new Error(`the indexing process exited (${sig ?? `code ${code}`})`),
          );
        };
        const onAbort = () => send(c, { type: 'stop' });
        c.on('message', onMessage);
        c.once('exit', onExit);
        signal.addEventListener('abort', onAbort, { once: true });
        send(c, { type: 'run' });
        if (signal.aborted) onAbort();
      });
    },
    async close() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise<void>((r) => c.once('exit', () => r()));
      send(c, { type: 'stop' });
      const timer = setTimeout(() => c.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A connection set up as getDb sets one up (without migrating: the parent has). */
export async function connect(config: Config): Promise<Db> {
  const db = createDb(config);
  if (config.databaseProvider === 'sqlite') await db.$executeRawUnsafe('PRAGMA foreign_keys = ON');
  return db;
}

/** The child's side: waits for its settings, then runs one indexing pass per {type:'run'} until stopped. */
export async function runIndexChild(makeTask: (db: Db, config: Config) => WorkerTask): Promise<void> {
  const log = createLogger('worker:index');
  if (!process.send) throw createError('INVALID_INPUT', '--index-child is started by `quin worker` over IPC, not by hand');
  // Before any thread is started: searches on the same cores come first (lib/priority.ts).
  if (!lowerPriority()) log.warn('could not lower the indexing process priority; searches share the cores with it evenly');
  // With a callback, a message the closing channel cannot take (EPIPE when the parent is gone) is
  // dropped, not an unhandled 'error' that kills the process mid-checkpoint with a stack trace.
  const send = (m: ToParent) => {
    if (process.connected) process.send!(m, undefined, {}, () => undefined);
  };
  const controller = new AbortController();
  // Set by the 'start' message (a holder, so that the type survives the closures).
  const state: { ready: Promise<{ db: Db; task: WorkerTask }> | null } = { ready: null };
  let running: Promise<void> = Promise.resolve();
  let finishTimer: NodeJS.Timeout | undefined;
  let stopping = false;
  /** One indexing pass. While stopping, a pass a passing write conflict cut short is run again (see transient). */
  const pass = async (): Promise<Record<string, unknown>> => {
    if (!state.ready) throw new Error('no settings received before the first pass');
    const { task } = await state.ready;
    for (;;) {
      try {
        return await task.run(controller.signal, () => send({ type: 'progress' }));
      } catch (e) {
        // While stopping there is no next pass to make up for one a write conflict cut short (SQLite's
        // busy snapshot: an import or the worker's last heartbeats landing as the checkpoint commits).
        if (!stopping || controller.signal.aborted || !transient(e)) throw e;
        log.info('indexing pass hit a write conflict while stopping; running it again', { error: describeError(e) });
      }
    }
  };
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      if (stopping) return;
      stopping = true;
      // What is being indexed may be finished; past FINISH_MS the pass is cancelled.
      finishTimer = setTimeout(() => controller.abort(), FINISH_MS);
      resolve();
    };
    process.on('message', (m: ToChild) => {
      if (m.type === 'start') {
        const config = m.config;
        state.ready = connect(config).then((db) => ({ db, task: makeTask(db, config) }));
      } else if (m.type === 'run') {
        running = running.then(async () => {
          // A pass asked for as the stop came: the final pass below does the work.
          if (stopping) return send({ type: 'done', summary: { skipped: 'stopping' } });
          try {
            send({ type: 'done', summary: await pass() });
          } catch (e) {
            send({ type: 'done', error: toWire(e) });
          }
        });
      } else stop();
    });
    // Every signal is handled (not once): a second one must not kill the process mid-checkpoint.
    process.once('disconnect', stop);
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await stopped;
  await running;
  // What arrived since the last pass, or what a failed pass left, is indexed now while the finish
  // window lasts (nothing to do is a quick check), so that a stop leaves the indexes complete.
  if (state.ready && !controller.signal.aborted) {
    const last = await pass().catch((e: unknown) => ({ error: describeError(e) }));
    if ('error' in last || 'aborted' in last) log.info('final indexing pass before stopping', last);
  }
  clearTimeout(finishTimer);
  await (await state.ready)?.db.$disconnect();
  log.debug('indexing process stopped');
  process.disconnect?.();
}
