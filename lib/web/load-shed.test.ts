import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Gate } from './load-shed';

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string; details?: { retryAfterSeconds?: number } }) => `${e.code}:${e.details?.retryAfterSeconds ?? '?'}`,
  );

describe('search gate', () => {
  it('runs up to its limit, queues a few, refuses the rest at once with OVERLOADED and Retry-After', async () => {
    const gate = new Gate(2, 2, 5000);
    const started: number[] = [];
    const job = (i: number) => () => {
      started.push(i);
      return sleep(100);
    };
    const t0 = performance.now();
    const runs = [0, 1, 2, 3, 4, 5].map((i) => outcome(gate.run(job(i))));
    expect(gate.saturated()).toBe(true);
    const refusedAt: number[] = [];
    void runs[4]!.then(() => refusedAt.push(performance.now() - t0));
    const results = await Promise.all(runs);
    expect(results.slice(0, 4)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(results[4]).toMatch(/^OVERLOADED:\d+$/);
    expect(results[5]).toMatch(/^OVERLOADED:\d+$/);
    expect(refusedAt[0]).toBeLessThan(50);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(gate.stats()).toMatchObject({ active: 0, waiting: 0 });
  });

  it('refuses a queued run that waits longer than its limit, and frees nothing it did not take', async () => {
    const gate = new Gate(1, 5, 50);
    const long = gate.run(() => sleep(300));
    const waiting = outcome(gate.run(() => sleep(1)));
    expect(await waiting).toMatch(/^OVERLOADED/);
    await long;
    expect(gate.stats()).toMatchObject({ active: 0, waiting: 0 });
    expect(await outcome(gate.run(() => sleep(1)))).toBe('ok');
  });
});
