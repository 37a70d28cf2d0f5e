import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { listWorkers } from '../../lib/web/worker-heartbeat';
import { runWorker, type WorkerTask } from './worker';

describe('quin worker loop', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => t.cleanup());

  it('runs its tasks in order each pass, records failures and keeps going, beats, and stops cleanly', async () => {
    const calls: string[] = [];
    const controller = new AbortController();
    let passes = 0;
    const tasks: WorkerTask[] = [
      {
        name: 'crawl',
        async run() {
          calls.push('crawl');
          if (calls.length === 1) throw new Error('feed server down');
          return { feeds: 1 };
        },
      },
      {
        name: 'index',
        async run() {
          calls.push('index');
          // The heartbeat says what the worker is doing while it does it.
          const [w] = await listWorkers(t.db);
          expect(w!.state).toBe('indexing');
          if (++passes === 2) controller.abort();
          return { added: passes };
        },
      },
    ];
    const result = await runWorker({ db: t.db, tasks, pollMs: 10, signal: controller.signal, heartbeatMs: 5 });
    expect(calls).toEqual(['crawl', 'index', 'crawl', 'index']);
    expect(result.passes).toBe(2);
    expect(result.last.crawl).toMatchObject({ ok: true, summary: { feeds: 1 } });
    const [w] = await listWorkers(t.db);
    expect(w).toMatchObject({ pid: process.pid, state: 'stopped', up: false });
    expect(w!.detail).toMatchObject({ passes: 2, index: { ok: true, summary: { added: 2 } } });
  });

  it('records a failing task in the heartbeat', async () => {
    const controller = new AbortController();
    const tasks: WorkerTask[] = [
      {
        name: 'crawl',
        async run() {
          throw new Error('boom');
        },
      },
    ];
    const r = await runWorker({ db: t.db, tasks, pollMs: 10, signal: controller.signal, once: true });
    expect(r.last.crawl).toMatchObject({ ok: false, error: 'boom' });
  });

  it('cancels a long pass through the signal and still says "stopped"', async () => {
    const controller = new AbortController();
    const tasks: WorkerTask[] = [
      {
        name: 'index',
        run: (signal) =>
          new Promise((_, reject) => {
            const abort = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
            if (signal.aborted) abort();
            else signal.addEventListener('abort', abort);
          }),
      },
    ];
    setTimeout(() => controller.abort(), 200);
    const t0 = Date.now();
    await runWorker({ db: t.db, tasks, pollMs: 60_000, signal: controller.signal });
    expect(Date.now() - t0).toBeLessThan(5000);
    const [w] = await listWorkers(t.db);
    expect(w!.state).toBe('stopped');
  });
});
