/**
 * `quin worker`: the background process beside the web server. Two loops run side by side: the
 * crawler checks the feeds that are due, the indexer indexes what changed (incrementally); each
 * sleeps `workerPollSeconds` between its passes. Side by side, so that a due or "Check now" feed is
 * fetched within seconds whatever the indexing backlog, and a slow host never holds the indexer.
 * With both loops, each indexing pass runs in a child process (worker-index-process.ts): embedding
 * holds the event loop, and the crawl must not wait behind it. A heartbeat row
 * says what each loop does and when it last made progress, so that /api/health and the dashboard can
 * tell a busy worker from a stuck one. SIGINT/SIGTERM (or the supervisor going away) cancel the
 * passes in progress through an AbortSignal and end the loops cleanly: the heartbeat says "stopped".
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Option, type Command } from 'commander';
import { createHttpClient, runCrawlOnce, type HttpClient } from '../../crawler';
import { indexStatus, runIndex } from '../../indexer';
import { getConfig, type Config } from '../../lib/config';
import { getDb, type Db } from '../../lib/db/client';
import { describeError, isQuinError } from '../../lib/errors';
import { eventLoopDelay, watchEventLoop } from '../../lib/event-loop';
import { createLogger, type Logger } from '../../lib/log';
import { beat, pruneHeartbeats, workerId, type LoopBeat, type WorkerState } from '../../lib/web/worker-heartbeat';
import { indexProcessTask, runIndexChild } from './worker-index-process';

/** One loop of the worker: crawl due feeds, or index pending snippets. `progress` marks headway (a fetch, a batch). */
export interface WorkerTask {
  name: 'crawl' | 'index';
  run(signal: AbortSignal, progress: () => void): Promise<Record<string, unknown>>;
  close?(): Promise<void>;
}

export interface WorkerOptions {
  db: Db;
  tasks: WorkerTask[];
  pollMs: number;
  signal: AbortSignal;
  log?: Logger;
  /** Stop after one pass of each loop (tests, `--once`). */
  once?: boolean;
  heartbeatMs?: number;
  /** A loop that made no progress for this long is reported as stuck (default 5 minutes). */
  stuckAfterSeconds?: number;
}

export interface TaskOutcome {
  ok: boolean;
  at: string;
  ms: number;
  summary?: Record<string, unknown>;
  error?: string;
}

const ACTIVE_STATE: Record<WorkerTask['name'], WorkerState> = { crawl: 'crawling', index: 'indexing' };

/** The worker's state in one word (for the dashboard): what the loops are doing now. */
function overallState(loops: Record<string, LoopBeat>, stopped: boolean): WorkerState {
  if (stopped) return 'stopped';
  const running = Object.entries(loops).filter(([, l]) => l.state === 'running');
  if (running.length === 0) return Object.values(loops).some((l) => l.passes > 0) ? 'idle' : 'starting';
  if (running.length > 1) return 'crawling+indexing';
  return ACTIVE_STATE[running[0]![0] as WorkerTask['name']];
}

const isAbort = (e: unknown) => isQuinError(e, 'CANCELLED') || (e as Error)?.name === 'AbortError';

/** The loops. A failing pass is logged and recorded in the heartbeat; its loop goes on. */
export async function runWorker(opts: WorkerOptions): Promise<{ passes: number; last: Record<string, TaskOutcome> }> {
  const log = opts.log ?? createLogger('worker');
  watchEventLoop();
  const id = workerId();
  const startedAt = new Date();
  const last: Record<string, TaskOutcome> = {};
  const loops: Record<string, LoopBeat> = {};
  const now = () => new Date().toISOString();
  for (const t of opts.tasks) loops[t.name] = { state: 'waiting', since: now(), progressAt: now(), passes: 0 };
  const stuckAfterSeconds = opts.stuckAfterSeconds ?? 300;
  let stopped = false;
  const passes = () => Object.values(loops).reduce((n, l) => n + l.passes, 0);
  // Beats are queued so that they reach the database in order, each writing the state current when it runs.
  let queue: Promise<void> = Promise.resolve();
  const beatNow = () =>
    (queue = queue.then(() =>
      beat(
        opts.db,
        id,
        overallState(loops, stopped),
        { passes: passes(), ...last, loops, stuckAfterSeconds, eventLoop: eventLoopDelay() },
        startedAt,
      ).catch((e) => log.warn('heartbeat failed', { error: describeError(e) })),
    ));

  await pruneHeartbeats(opts.db).catch(() => 0);
  await beatNow();
  // Beats also while a long pass runs, so that a busy worker is not taken for a dead one.
  const timer = setInterval(() => void beatNow(), opts.heartbeatMs ?? 10_000);
  timer.unref();

  const loop = async (task: WorkerTask) => {
    const state = loops[task.name]!;
    const progress = () => void (state.progressAt = now());
    while (!opts.signal.aborted) {
      Object.assign(state, { state: 'running', since: now(), progressAt: now() });
      await beatNow();
      const t0 = Date.now();
      try {
        const summary = await task.run(opts.signal, progress);
        last[task.name] = { ok: true, at: now(), ms: Date.now() - t0, summary };
      } catch (e) {
        if (opts.signal.aborted && isAbort(e)) break;
        log.error(`${task.name} pass failed`, { error: describeError(e) });
        last[task.name] = { ok: false, at: now(), ms: Date.now() - t0, error: describeError(e) };
      }
      state.passes += 1;
      Object.assign(state, { state: 'waiting', since: now() });
      await beatNow();
      if (opts.once || opts.signal.aborted) break;
      await sleep(opts.pollMs, undefined, { signal: opts.signal }).catch(() => undefined);
    }
    state.state = 'stopped';
  };

  try {
    await Promise.all(opts.tasks.map(loop));
  } finally {
    clearInterval(timer);
    await Promise.all(opts.tasks.map((t) => t.close?.().catch(() => undefined)));
    for (const l of Object.values(loops)) l.state = 'stopped';
    stopped = true;
    await beatNow();
  }
  return { passes: passes(), last };
}

/** A progress display for runIndex whose every step counts as headway. */
function progressFactory(progress: () => void) {
  return () => ({ tick: progress, setTotal: progress, done: progress });
}

/** The indexer's incremental run: what changed since its last checkpoint, cancellable between batches. */
export function indexTask(db: Db, config: Config): WorkerTask {
  return {
    name: 'index',
    async run(signal, progress) {
      // Nothing waiting and the same encoder: skip the run (and its log lines) until there is work.
      // (Deleted snippets need nothing here: their entries go with them and searches skip the rest.)
      const st = await indexStatus(db, config);
      const sameEncoder = config.encoder === 'onnx' || st.dense.encoder === null || st.dense.encoder === st.dense.configuredEncoder;
      const denseCurrent = !st.dense.available || (st.dense.pending === 0 && sameEncoder);
      if ((st.bm25.pending ?? 1) === 0 && denseCurrent) return { snippets: st.snippets, skipped: 'up to date' };
      const s = await runIndex(db, config, { signal, progress: progressFactory(progress) });
      const dense = 'skipped' in s.dense ? { skipped: s.dense.skipped } : s.dense;
      return { snippets: s.snippets, bm25: s.bm25, dense, seconds: s.seconds, aborted: s.aborted };
    },
  };
}

/** Every fetch that ends (well or not) is headway of the crawl loop. */
function progressingClient(http: HttpClient, progress: { current: () => void }): HttpClient {
  return {
    userAgent: http.userAgent,
    fetch: (req) => http.fetch(req).finally(() => progress.current()),
    close: () => http.close(),
  };
}

/** The crawler's pass over the feeds that are due. One HTTP transport for the worker's life (robots cache, per-host delays and pauses). */
export function crawlTask(db: Db, config: Config): WorkerTask {
  const progress = { current: () => undefined as void };
  const http = progressingClient(createHttpClient(config), progress);
  return {
    name: 'crawl',
    async run(signal, onProgress) {
      progress.current = onProgress;
      const s = await runCrawlOnce(db, config, { signal, http, onFeed: () => onProgress() });
      return { ...s };
    },
    close: () => http.close(),
  };
}

/** The real loops: the crawler here, the indexer in a child process when both run (else here). */
export async function defaultTasks(db: Db, config: Config, opts: { crawl: boolean; index: boolean }): Promise<WorkerTask[]> {
  const tasks: WorkerTask[] = [];
  if (opts.crawl) tasks.push(crawlTask(db, config));
  if (opts.index) tasks.push(opts.crawl ? indexProcessTask(config) : indexTask(db, config));
  return tasks;
}

export function register(program: Command): void {
  program
    .command('worker')
    .description('run the background crawler + incremental indexer until stopped (npm start runs it beside the web server)')
    .option('--once', 'one pass of each loop, then exit')
    .option('--no-crawl', 'do not crawl feeds')
    .option('--no-index', 'do not update the indexes')
    .addOption(new Option('--index-child', 'the indexing process a worker starts for itself (IPC)').hideHelp())
    .action(async (opts: { once?: boolean; crawl: boolean; index: boolean; indexChild?: boolean }) => {
      if (opts.indexChild) return runIndexChild(indexTask);
      const config = getConfig();
      const db = await getDb(config);
      const log = createLogger('worker');
      const controller = new AbortController();
      let firstStopAt = 0;
      const stop = (why: string) => {
        if (controller.signal.aborted) {
          // The same Ctrl-C twice (the terminal's and npm's copy) is one stop; a later one quits at once.
          if (why === 'supervisor gone' || Date.now() - firstStopAt < 1500) return;
          process.exit(130);
        }
        firstStopAt = Date.now();
        log.info('stopping', { why });
        controller.abort();
      };
      process.on('SIGINT', () => stop('SIGINT'));
      process.on('SIGTERM', () => stop('SIGTERM'));
      // Started by the supervisor with an IPC channel: when the supervisor goes, so does the worker.
      if (process.connected) process.on('disconnect', () => stop('supervisor gone'));
      const tasks = await defaultTasks(db, config, opts);
      log.info('started', { tasks: tasks.map((t) => t.name).join(',') || 'none', pollSeconds: config.workerPollSeconds });
      const { passes } = await runWorker({
        db,
        tasks,
        pollMs: config.workerPollSeconds * 1000,
        signal: controller.signal,
        log,
        once: opts.once,
        stuckAfterSeconds: Math.max(300, (3 * config.fetchTimeoutMs) / 1000),
      });
      log.info('stopped', { passes });
      // Anything still holding the event loop (a socket being closed) gets a moment; the work is
      // done and saved, so the process ends shortly after even then.
      setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
    });
}
