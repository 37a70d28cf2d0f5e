/** Liveness and readiness of the web service: database, indexes, models, background worker. */
import { describeError } from '../../lib/errors';
import { withoutServerPaths } from '../../lib/public-text';
import { BLOCKED_MS, eventLoopDelay, type LoopDelay } from '../../lib/event-loop';
import { listWorkers, type WorkerStatus } from '../../lib/web/worker-heartbeat';
import { clusterProblem, describeCluster, indexInfo, type IndexInfo } from './index-info';
import { describeServing, servingIndexes, type Serving } from './serving';
import { searchContext, searchContextState, services } from './services';

export interface Check {
  ok: boolean;
  detail: string;
}

export interface HealthReport {
  status: 'ok' | 'degraded' | 'unavailable';
  live: true;
  ready: boolean;
  uptimeSeconds: number;
  checks: {
    database: Check & { latencyMs: number | null };
    indexes: Check & { snippets: number | null; pending: number | null; serving: Serving | null; elasticsearch: IndexInfo['cluster'] };
    models: Check & {
      state: ReturnType<typeof searchContextState>;
      encoder: string | null;
      reranker: string | null;
      nli: string | null;
      /** Configured models that cannot serve (search goes on without their feature): the model and the problem. */
      unavailable: { feature: 'reranker' | 'verdict'; model: string; problem: string }[];
    };
    worker: Check & {
      state: string | null;
      lastBeatAt: string | null;
      ageSeconds: number | null;
      stuck: string | null;
      eventLoop: { p99Ms: number; maxMs: number } | null;
    };
    eventLoop: Check & LoopDelay;
  };
}

type Timed<T> = { value?: T; error?: string; ms: number };

async function timed<T>(fn: () => Promise<T>): Promise<Timed<T>> {
  const t0 = performance.now();
  try {
    return { value: await fn(), ms: Math.round((performance.now() - t0) * 10) / 10 };
  } catch (e) {
    // Anyone may read /api/health: what is wrong, without the server's paths.
    return { error: withoutServerPaths(describeError(e)), ms: Math.round(performance.now() - t0) };
  }
}

function workerDetail(w: WorkerStatus): string {
  if (!w.up) return `no heartbeat for ${Math.round(w.ageSeconds)} s`;
  if (w.late) return `${w.state}; its heartbeat is ${Math.round(w.ageSeconds)} s old (it beats every 10 s): its event loop may be blocked`;
  const blocked =
    w.eventLoop && w.eventLoop.maxMs >= BLOCKED_MS ? `; its event loop was blocked for ${(w.eventLoop.maxMs / 1000).toFixed(1)} s` : '';
  return `${w.state}${blocked}`;
}

export async function healthReport(): Promise<HealthReport> {
  const { config, db, startedAt } = await services();
  // Every check at once: on an event loop busy with searches, each await waits its turn in the queue,
  // and one after another they added up to more than a second. (A database that is down fails all three.)
  const [ping, indexRead, workerList, serving] = await Promise.all([
    timed(() => db.$queryRawUnsafe('SELECT 1')),
    timed(() => indexInfo(config, db)),
    timed(() => listWorkers(db)),
    servingIndexes().catch(() => null),
  ]);
  const down = { error: 'database unavailable', ms: 0 };
  const idx: Timed<IndexInfo> = ping.error ? down : indexRead;
  const workers: Timed<WorkerStatus[]> = ping.error ? down : workerList;
  const state = searchContextState();
  // A context that failed to open is retried in the background (never awaited by a health check).
  if (state === 'failed' || state === 'not_loaded') void searchContext().catch(() => undefined);
  let models = {
    encoder: null as string | null,
    reranker: null as string | null,
    nli: null as string | null,
    error: undefined as string | undefined,
  };
  let unavailable: HealthReport['checks']['models']['unavailable'] = [];
  if (state === 'ready') {
    const ctx = await searchContext();
    models = { encoder: ctx.indexes.encoder.id, reranker: ctx.reranker?.id ?? null, nli: ctx.verdict?.id ?? null, error: undefined };
    unavailable = (['reranker', 'verdict'] as const).flatMap((feature) => {
      const p = ctx.unavailable?.[feature];
      return p ? [{ feature, model: p.model, problem: withoutServerPaths(p.problem) }] : [];
    });
  } else if (state === 'failed') {
    models.error = await searchContext().then(
      () => undefined,
      (e: unknown) => withoutServerPaths(describeError(e)),
    );
  }
  const worker = workers.value?.[0];
  const database = { ok: !ping.error, detail: ping.error ?? `${config.databaseProvider} answers`, latencyMs: ping.error ? null : ping.ms };
  const cluster = idx.value?.cluster ?? null;
  const indexes = {
    ok: !idx.error && state === 'ready' && !clusterProblem(cluster),
    detail:
      idx.error ??
      (state === 'ready'
        ? `${serving ? `${describeServing(serving)}; ` : ''}${idx.value!.pending} snippets waiting to be indexed${cluster ? `; Elasticsearch: ${describeCluster(cluster)}` : ''}`
        : `search indexes ${state.replace('_', ' ')}`),
    snippets: idx.value?.snippets ?? null,
    pending: idx.value?.pending ?? null,
    serving,
    elasticsearch: cluster,
  };
  // One line per broken model: which feature is off, which model, what is wrong.
  const off = unavailable.map(
    (u) => `${u.feature === 'verdict' ? 'verdicts' : 'reranking'} off, the model ${u.model} cannot serve: ${u.problem}`,
  );
  const modelCheck = {
    ok: state === 'ready' && off.length === 0,
    detail: models.error ?? (state === 'ready' ? ['loaded', ...off].join('; ') : state.replace('_', ' ')),
    state,
    ...models,
    unavailable,
  };
  delete (modelCheck as { error?: string }).error;
  const workerCheck = {
    // A worker that beats but makes no progress (a loop stuck on something), or whose beat is late
    // (its event loop held), is not healthy either.
    ok: !!worker?.up && !worker.stuck && !worker.late,
    detail: workers.error ?? (worker ? workerDetail(worker) : 'no worker has run yet'),
    state: worker?.state ?? null,
    lastBeatAt: worker?.beatAt ?? null,
    ageSeconds: worker ? Math.round(worker.ageSeconds) : null,
    stuck: worker?.stuck ?? null,
    eventLoop: worker?.eventLoop ?? null,
  };
  const loop = eventLoopDelay();
  const eventLoop = {
    ok: loop.maxMs < BLOCKED_MS,
    detail:
      loop.maxMs < BLOCKED_MS
        ? `this process's event loop ran freely (longest delay ${Math.round(loop.maxMs)} ms in the last ${loop.windowSeconds} s)`
        : `this process's event loop was blocked for ${(loop.maxMs / 1000).toFixed(1)} s in the last ${loop.windowSeconds} s`,
    ...loop,
  };
  const ready = database.ok && indexes.ok;
  return {
    // A model that cannot serve costs its feature only: still ready, but degraded.
    status: !ready ? 'unavailable' : eventLoop.ok && off.length === 0 && (workerCheck.ok || !config.worker) ? 'ok' : 'degraded',
    live: true,
    ready,
    uptimeSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
    checks: { database, indexes, models: modelCheck, worker: workerCheck, eventLoop },
  };
}
