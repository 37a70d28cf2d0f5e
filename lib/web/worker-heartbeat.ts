/**
 * Heartbeats of background workers (`quin worker`), one row per process, so that the web service
 * (/api/health, /metrics, the dashboard) can tell whether crawling and indexing are alive.
 */
import os from 'node:os';
import type { Db } from '../db/client';

export type WorkerState = 'starting' | 'crawling' | 'indexing' | 'idle' | 'stopping' | 'stopped' | 'error';

/** A worker whose last beat is older than this is considered down. */
export const HEARTBEAT_STALE_SECONDS = 90;

export interface WorkerStatus {
  id: string;
  pid: number;
  hostname: string;
  state: string;
  startedAt: string;
  beatAt: string;
  ageSeconds: number;
  up: boolean;
  detail: Record<string, unknown> | null;
}

export function workerId(): string {
  return `${os.hostname()}:${process.pid}`;
}

export async function beat(db: Db, id: string, state: WorkerState, detail: Record<string, unknown> | null, startedAt: Date): Promise<void> {
  const now = new Date();
  const data = { state, detail: detail ? JSON.stringify(detail) : null, beatAt: now };
  await db.workerHeartbeat.upsert({
    where: { id },
    create: { id, pid: process.pid, hostname: os.hostname(), startedAt, ...data },
    update: data,
  });
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

/** Workers seen recently, most recent beat first. */
export async function listWorkers(db: Db, now = new Date()): Promise<WorkerStatus[]> {
  const rows = await db.workerHeartbeat.findMany({ orderBy: { beatAt: 'desc' }, take: 20 });
  return rows.map((r) => {
    const ageSeconds = Math.max(0, (now.getTime() - r.beatAt.getTime()) / 1000);
    return {
      id: r.id,
      pid: r.pid,
      hostname: r.hostname,
      state: r.state,
      startedAt: r.startedAt.toISOString(),
      beatAt: r.beatAt.toISOString(),
      ageSeconds,
      up: r.state !== 'stopped' && ageSeconds <= HEARTBEAT_STALE_SECONDS,
      detail: parseDetail(r.detail),
    };
  });
}
