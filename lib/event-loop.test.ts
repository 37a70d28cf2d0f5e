import { describe, expect, it } from 'vitest';
import { BLOCKED_MS, eventLoopDelay, forgetStartupDelays, watchEventLoop } from './event-loop';

describe('event-loop delay', () => {
  it('reports a loop held for more than a second, after the fact', async () => {
    watchEventLoop();
    await new Promise((r) => setTimeout(r, 100));
    const until = Date.now() + BLOCKED_MS + 200;
    while (Date.now() < until) {
      // hold the loop, as a quadratic parse did
    }
    await new Promise((r) => setTimeout(r, 50));
    const d = eventLoopDelay();
    expect(d.maxMs).toBeGreaterThanOrEqual(BLOCKED_MS);
    expect(d.p99Ms).toBeGreaterThan(0);
    expect(d.windowSeconds).toBeLessThanOrEqual(60);
  });

  it('forgets the delays of the start (models loading) once they are loaded, and measures on', async () => {
    watchEventLoop();
    const until = Date.now() + BLOCKED_MS + 200;
    while (Date.now() < until) {
      // loading the models at start holds the loop so
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(forgetStartupDelays()).toBeGreaterThanOrEqual(BLOCKED_MS);
    await new Promise((r) => setTimeout(r, 100));
    expect(eventLoopDelay().maxMs).toBeLessThan(BLOCKED_MS);
  });
});
