/**
 * `quin worker`: the background process beside the web server. In a loop it crawls the feeds that are
 * due and then indexes what changed (incrementally), beats a heartbeat row that /api/health and the
 * dashboard read, and sleeps. SIGINT/SIGTERM (or the supervisor going away) cancel the pass in
 * progress through an AbortSignal and end the loop cleanly: the heartbeat says "stopped".
 */
import type { Command } from 'commander';
import { createHttpClient, runCrawlOnce } from '../../crawler';
import { indexStatus, runIndex } from '../../indexer';
import { getConfig, type Config } from '../../lib/config';
import { getDb, type Db } from '../../lib/db/client';
import { describeError, isQuinError } from '../../lib/errors';
import { createLogger, type Logger } from '../../lib/log';
import { beat, pruneHeartbeats, workerId, type WorkerState } from '../../lib/web/worker-heartbeat';

/** One step of a worker pass: crawl due feeds, or index pending snippets. Returns a summary for the heartbeat. */
export interface WorkerTask {
  name: 'crawl' | 'index';
  run(signal: AbortSignal): Promise<Record<string, unknown>>;
}

export interface WorkerOptions {
  db: Db;
  tasks: WorkerTask[];
  pollMs: number;
  signal: AbortSignal;
  log?: Logger;
  /** Stop after one pass (tests, `--once`). */
  once?: boolean;
  heartbeatMs?: number;
}

export interface TaskOutcome {
  ok: boolean;
  at: string;
  ms: number;
  summary?: Record<string, unknown>;
  error?: string;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

const STATE_OF: Record<WorkerTask['name'], WorkerState> = { crawl: 'crawling', index: 'indexing' };

/** The loop. A failing task is logged and recorded in the heartbeat; the loop goes on. */
export async function runWorker(opts: WorkerOptions): Promise<{ passes: number; last: Record<string, TaskOutcome> }> {
  const log = opts.log ?? createLogger('worker');
  const id = workerId();
  const startedAt = new Date();
  const last: Record<string, TaskOutcome> = {};
  let state: WorkerState = 'starting';
  let passes = 0;
  // Beats are queued so that they reach the database in order (the timer's and the loop's), each
  // writing the state current when it runs.
  let queue: Promise<void> = Promise.resolve();
  const beatNow = () =>
    (queue = queue.then(() => beat(opts.db, id, state, { passes, ...last }, startedAt).catch((e) => log.warn('heartbeat failed', { error: describeError(e) }))));

  await pruneHeartbeats(opts.db).catch(() => 0);
  await beatNow();
  // Beats also while a long pass runs, so that a busy worker is not taken for a dead one.
  const timer = setInterval(() => void beatNow(), opts.heartbeatMs ?? 10_000);
  timer.unref();
  try {
    while (!opts.signal.aborted) {
      for (const task of opts.tasks) {
        if (opts.signal.aborted) break;
        state = STATE_OF[task.name];
        await beatNow();
        const t0 = Date.now();
        try {
          const summary = await task.run(opts.signal);
          last[task.name] = { ok: true, at: new Date().toISOString(), ms: Date.now() - t0, summary };
        } catch (e) {
          if (opts.signal.aborted && (isQuinError(e, 'CANCELLED') || (e as Error)?.name === 'AbortError')) break;
          log.error(`${task.name} pass failed`, { error: describeError(e) });
          last[task.name] = { ok: false, at: new Date().toISOString(), ms: Date.now() - t0, error: describeError(e) };
        }
      }
      passes += 1;
      if (opts.once || opts.signal.aborted) break;
      state = 'idle';
      await beatNow();
      await sleep(opts.pollMs, opts.signal);
    }
  } finally {
    clearInterval(timer);
    state = 'stopped';
    await beatNow();
  }
  return { passes, last };
}

/** The indexer's incremental run: what changed since its last checkpoint, cancellable between batches. */
export function indexTask(db: Db, config: Config): WorkerTask {
  return {
    name: 'index',
    async run(signal) {
      // Nothing waiting and the same encoder: skip the run (and its log lines) until there is work.
      // (Deleted snippets need nothing here: their entries go with them and searches skip the rest.)
      const st = await indexStatus(db, config);
      const sameEncoder = config.encoder === 'onnx' || st.dense.encoder === null || st.dense.encoder === st.dense.configuredEncoder;
      const denseCurrent = !st.dense.available || (st.dense.pending === 0 && sameEncoder);
      if ((st.bm25.pending ?? 1) === 0 && denseCurrent) return { snippets: st.snippets, skipped: 'up to date' };
      const s = await runIndex(db, config, { signal, progress: false });
      const dense = 'skipped' in s.dense ? { skipped: s.dense.skipped } : s.dense;
      return { snippets: s.snippets, bm25: s.bm25, dense, seconds: s.seconds, aborted: s.aborted };
    },
  };
}

/** The crawler's pass over the feeds that are due. One HTTP transport for the worker's life (robots cache, per-host delays). */
export function crawlTask(db: Db, config: Config): WorkerTask {
  const http = createHttpClient(config);
  return {
    name: 'crawl',
    async run(signal) {
      const s = await runCrawlOnce(db, config, { signal, http });
      return { ...s };
    },
  };
}

/** The real tasks, in order: crawl what is due, then index what changed. */
export async function defaultTasks(db: Db, config: Config, opts: { crawl: boolean; index: boolean }): Promise<WorkerTask[]> {
  const tasks: WorkerTask[] = [];
  if (opts.crawl) tasks.push(crawlTask(db, config));
  if (opts.index) tasks.push(indexTask(db, config));
  return tasks;
}

export function register(program: Command): void {
  program
    .command('worker')
    .description('run the background crawler + incremental indexer until stopped (npm start runs it beside the web server)')
    .option('--once', 'one pass, then exit')
    .option('--no-crawl', 'do not crawl feeds')
    .option('--no-index', 'do not update the indexes')
    .action(async (opts: { once?: boolean; crawl: boolean; index: boolean }) => {
      const config = getConfig();
      const db = await getDb(config);
      const log = createLogger('worker');
      const controller = new AbortController();
      let signals = 0;
      const stop = (why: string) => {
        signals += 1;
        if (signals > 1) process.exit(130);
        log.info('stopping', { why });
        controller.abort();
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
      // Started by the supervisor with an IPC channel: when the supervisor goes, so does the worker.
      if (process.connected) process.on('disconnect', () => stop('supervisor gone'));
      const tasks = await defaultTasks(db, config, opts);
      log.info('started', { tasks: tasks.map((t) => t.name).join(',') || 'none', pollSeconds: config.workerPollSeconds });
      const { passes } = await runWorker({ db, tasks, pollMs: config.workerPollSeconds * 1000, signal: controller.signal, log, once: opts.once });
      log.info('stopped', { passes });
      // Idle keep-alive sockets to crawled sites may hold the process open; the work is done and
      // saved, so it ends shortly after even then (the timer itself does not keep it alive).
      setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
    });
}
