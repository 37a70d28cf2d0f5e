import { describe, expect, it } from 'vitest';
import { isQuinError } from '../lib/errors';
import { inOrder } from './ordered';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('inOrder', () => {
  it('runs a few at a time and hands results out in the list’s order, each as soon as those before it are done', async () => {
    let running = 0;
    let most = 0;
    const seen: [number, number][] = [];
    const t0 = Date.now();
    const work = async (ms: number) => {
      most = Math.max(most, ++running);
      await sleep(ms);
      running--;
      return ms;
    };
    for await (const r of inOrder([60, 10, 10, 10], 2, work)) seen.push([r, Date.now() - t0]);
    expect(seen.map(([r]) => r)).toEqual([60, 10, 10, 10]);
    expect(most).toBe(2);
    // The first (slow) item is handed out when it is done, not after the whole list.
    expect(seen[0]![1]).toBeLessThan(100);
  });

  it('passes a failure on in its place and starts nothing after a cancellation', async () => {
    const fail = async (x: number) => {
      if (x === 2) throw new Error('boom');
      return x;
    };
    const got: number[] = [];
    await expect(async () => {
      for await (const r of inOrder([1, 2, 3], 1, fail)) got.push(r);
    }).rejects.toThrow('boom');
    expect(got).toEqual([1]);
    const controller = new AbortController();
    const started: number[] = [];
    const track = async (x: number) => {
      started.push(x);
      if (x === 1) controller.abort();
      return x;
    };
    const e = await (async () => {
      try {
        for await (const _ of inOrder([1, 2, 3], 1, track, controller.signal));
      } catch (err) {
        return err;
      }
    })();
    expect(isQuinError(e, 'CANCELLED')).toBe(true);
    expect(started).toEqual([1]);
  });
});
