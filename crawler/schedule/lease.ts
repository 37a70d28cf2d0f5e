/**
 * Feed leases: several crawler processes (e.g. on one PostgreSQL database) never check the same feed
 * at the same time. A lease is taken with one conditional UPDATE (atomic in both databases): it
 * succeeds only when nobody holds the feed or the holder's lease has run out. The holder renews it
 * while it works and clears it when done. A process killed with -9 leaves its lease behind until it
 * runs out, except that a restart on the same machine takes over leases whose holder is dead.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { Db } from '../../lib/db/client';
import { withDbRetry } from '../../lib/db/retry';

/** hostname:pid:random — unique per process run. */
export function newLeaseOwner(): string {
  return `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
}

function isDeadLocalOwner(owner: string): boolean {
  const [host, pid] = owner.split(':');
  if (host !== os.hostname() || !pid || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Frees the leases held by processes of this machine that no longer exist. Returns how many. */
export async function reclaimDeadLeases(db: Db, now = new Date()): Promise<number> {
  const held = await db.feed.findMany({
    where: { leaseOwner: { not: null }, leaseUntil: { gt: now } },
    select: { id: true, leaseOwner: true },
  });
  let freed = 0;
  for (const f of held) {
    if (!f.leaseOwner || !isDeadLocalOwner(f.leaseOwner)) continue;
    const r = await withDbRetry(() =>
      db.feed.updateMany({ where: { id: f.id, leaseOwner: f.leaseOwner }, data: { leaseOwner: null, leaseUntil: null } }),
    );
    freed += r.count;
  }
  return freed;
}

/**
 * The lease a crawler process holds on a feed while checking it, renewed as it goes (every third of
 * it): long enough that a slow feed is not taken over while it is worked on, short enough that a
 * killed process's feeds are checked again within minutes.
 */
export const FEED_LEASE_SECONDS = 600;

export interface AcquireOptions {
  owner: string;
  seconds: number;
  now?: Date;
  /** Take the feed even if it is not due yet (an explicit "refresh now"). */
  force?: boolean;
}

/** Takes the lease on a due, unpaused feed. True when this process now holds it. */
export async function acquireLease(db: Db, feedId: number, opts: AcquireOptions): Promise<boolean> {
  const now = opts.now ?? new Date();
  const r = await withDbRetry(() =>
    db.feed.updateMany({
      where: {
        id: feedId,
        status: { not: 'paused' },
        ...(opts.force ? {} : { nextCheckAt: { lte: now } }),
        OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }],
      },
      data: { leaseOwner: opts.owner, leaseUntil: new Date(now.getTime() + opts.seconds * 1000) },
    }),
  );
  return r.count === 1;
}

/** Extends a held lease. False when the lease was lost (ran out and taken by another process). */
export async function renewLease(db: Db, feedId: number, owner: string, seconds: number, now = new Date()): Promise<boolean> {
  const r = await withDbRetry(() =>
    db.feed.updateMany({
      where: { id: feedId, leaseOwner: owner },
      data: { leaseUntil: new Date(now.getTime() + seconds * 1000) },
    }),
  );
  return r.count === 1;
}

export async function releaseLease(db: Db, feedId: number, owner: string): Promise<void> {
  await withDbRetry(() => db.feed.updateMany({ where: { id: feedId, leaseOwner: owner }, data: { leaseOwner: null, leaseUntil: null } }));
}

/** Feeds whose check is due and that nobody holds, the most overdue first. */
export async function dueFeeds(db: Db, now = new Date(), limit = 500) {
  return db.feed.findMany({
    where: { status: { in: ['active', 'broken'] }, nextCheckAt: { lte: now }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    orderBy: [{ nextCheckAt: 'asc' }, { id: 'asc' }],
    take: limit,
  });
}
