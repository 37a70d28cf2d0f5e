/**
 * Heartbeats of background workers (`quin worker`), one row per process, so that the web service
 * (/api/health, /metrics, the dashboard) can tell whether crawling and indexing are alive, and
 * whether a live worker is stuck: each of its loops records when it last made progress.
 */
import os from 'node:os';
import type { Db } from '../db/client';
import { withDbRetry } from '../db/retry';

export type WorkerState = 'starting' | 'crawling' | 'indexing' | 'crawling+indexing' | 'idle' | 'stopping' | 'stopped' | 'error';

/** One loop of a worker (crawl, index) as its heartbeat records it. */
export interface LoopBeat {
  state: 'running' | 'waiting' | 'stopped';
  /** When the loop entered its state (ISO time). */
  since: string;
  /** When the loop last made headway: a fetch ended, an indexing batch was written (ISO time). */
  progressAt: string;
  passes: number;
}

/** A worker whose last beat is older than this is considered down. */
export const HEARTBEAT_STALE_SECONDS = 90;
/**
 * A worker beats every 10 s, also while it works: a beat older than this (three missed) means its
 * event loop is held or it is going down. Health is "degraded" from then on, before the worker counts
 * as down.
 */
export const HEARTBEAT_LATE_SECONDS = 30;
/** A running loop without progress for this long is stuck, unless the worker says otherwise. */
export const DEFAULT_STUCK_SECONDS = 300;

export interface WorkerStatus {
  id: string;
  pid: number;
  hostname: string;
  /** What the worker does; `stuck (…)` when a loop of a live worker has made no progress for too long. */
  state: string;
  startedAt: string;
  beatAt: string;
  ageSeconds: number;
  up: boolean;
  /** Up, but its last beat is late (HEARTBEAT_LATE_SECONDS): its event loop may be blocked. */
  late: boolean;
  /** The worker's own event-loop delay over the minute before its last beat (lib/event-loop.ts), or null. */
  eventLoop: { p99Ms: number; maxMs: number } | null;
  /** Why the worker is stuck (a loop running without progress), or null. */
  stuck: string | null;
  detail: Record<string, unknown> | null;
}

export function workerId(): string {
  return `${os.hostname()}:${process.pid}`;
}

export async function beat(db: Db, id: string, state: WorkerState, detail: Record<string, unknown> | null, startedAt: Date): Promise<void> {
  const now = new Date();
  const data = { state, detail: detail ? JSON.stringify(detail) : null, beatAt: now };
  // A beat waits for a writer that holds the database (an import's batch) rather than being lost.
  await withDbRetry(() =>
    db.workerHeartbeat.upsert({
      where: { id },
      create: { id, pid: process.pid, hostname: os.hostname(), startedAt, ...data },
      update: data,
    }),
  );
}

/** Drops rows of workers that stopped long ago (each restart gets a new row). */
export async function pruneHeartbeats(db: Db, olderThanDays = 7): Promise<number> {
  const r = await db.workerHeartbeat.deleteMany({ where: { beatAt: { lt: new Date(Date.now() - olderThanDays * 86400_000) } } });
  return r.count;
}

function parseDetail(s: string | null): Record<string, unknown> | null {
  if (!s) return null;
  try {
    return JSON.parse(s) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** Why a live worker is stuck: a loop running without progress for longer than the worker allows. Pure. */
export function stuckReason(detail: Record<string, unknown> | null, now: Date): string | null {
  const loops = (detail?.loops ?? {}) as Record<string, Partial<LoopBeat>>;
  const limit = typeof detail?.stuckAfterSeconds === 'number' ? detail.stuckAfterSeconds : DEFAULT_STUCK_SECONDS;
  for (const [name, loop] of Object.entries(loops)) {
    if (loop.state !== 'running' || !loop.progressAt) continue;
    const quiet = (now.getTime() - Date.parse(loop.progressAt)) / 1000;
    if (quiet > limit) return `${name} has made no progress for ${Math.round(quiet)} s`;
  }
  return null;
}

/** Workers seen recently, most recent beat first. */
export async function listWorkers(db: Db, now = new Date()): Promise<WorkerStatus[]> {
  const rows = await db.workerHeartbeat.findMany({ orderBy: { beatAt: 'desc' }, take: 20 });
  return rows.map((r) => {
    const ageSeconds = Math.max(0, (now.getTime() - r.beatAt.getTime()) / 1000);
    const up = r.state !== 'stopped' && ageSeconds <= HEARTBEAT_STALE_SECONDS;
    const detail = parseDetail(r.detail);
    const stuck = up ? stuckReason(detail, now) : null;
    const loop = detail?.eventLoop as { p99Ms?: unknown; maxMs?: unknown } | undefined;
    const eventLoop =
      loop && typeof loop.p99Ms === 'number' && typeof loop.maxMs === 'number' ? { p99Ms: loop.p99Ms, maxMs: loop.maxMs } : null;
    return {
      id: r.id,
      pid: r.pid,
      hostname: r.hostname,
      state: stuck ? `stuck (${stuck})` : r.state,
      startedAt: r.startedAt.toISOString(),
      beatAt: r.beatAt.toISOString(),
      ageSeconds,
      up,
      late: up && ageSeconds > HEARTBEAT_LATE_SECONDS,
      eventLoop,
      stuck,
      detail,
    };
  });
}
