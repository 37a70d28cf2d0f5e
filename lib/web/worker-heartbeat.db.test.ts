/** The heartbeat as health reads it: a late beat (three missed) is "late" before the worker counts as down; the worker's event-loop delay is passed on. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { HEARTBEAT_LATE_SECONDS, HEARTBEAT_STALE_SECONDS, listWorkers } from './worker-heartbeat';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t?.cleanup());

describe('worker heartbeats', () => {
  it('says late, then down, as the last beat ages; passes on the event-loop delay', async () => {
    const now = new Date();
    const row = (id: string, ageSeconds: number) => ({
      id,
      pid: 1,
      hostname: 'h',
      state: 'crawling',
      detail: JSON.stringify({ eventLoop: { p99Ms: 12, maxMs: 2500, windowSeconds: 60 } }),
      startedAt: new Date(now.getTime() - 3_600_000),
      beatAt: new Date(now.getTime() - ageSeconds * 1000),
    });
    await t.db.workerHeartbeat.createMany({
      data: [row('fresh', 5), row('late', HEARTBEAT_LATE_SECONDS + 10), row('down', HEARTBEAT_STALE_SECONDS + 10)],
    });
    const by = Object.fromEntries((await listWorkers(t.db, now)).map((w) => [w.id, w]));
    expect(by.fresh).toMatchObject({ up: true, late: false, eventLoop: { p99Ms: 12, maxMs: 2500 } });
    expect(by.late).toMatchObject({ up: true, late: true });
    expect(by.down).toMatchObject({ up: false, late: false });
  });
});
