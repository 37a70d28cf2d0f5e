import { describe, expect, it } from 'vitest';
import { nextCheckView } from './next-check';

const now = new Date('2024-06-01T12:00:00Z');
const feed = { status: 'active', nextCheckAt: '2024-06-01T11:59:00Z', consecutiveFailures: 0, intervalMinutes: 60, hintMinutes: null };

describe('when a feed will really be checked', () => {
  it("a due feed is checked at the running worker's next pass; without a worker it waits, and says why", () => {
    expect(nextCheckView(feed, now, { up: true, pollSeconds: 15 })).toEqual({
      text: "at the worker's next pass (within 15 s)",
      why: null,
      due: true,
    });
    expect(nextCheckView(feed, now, { up: false, pollSeconds: 15 })).toEqual({
      text: 'due, waiting for the worker',
      why: 'the background worker is not running (`npm start` runs it, or `npx quin worker`)',
      due: true,
    });
  });

  it("later checks name the backoff or the feed's own hint; paused feeds are not checked", () => {
    const later = { ...feed, nextCheckAt: '2024-06-01T14:00:00Z' };
    expect(nextCheckView({ ...later, consecutiveFailures: 3 }, now, { up: true, pollSeconds: 15 })).toMatchObject({
      text: 'in 2 h',
      why: 'backing off after 3 failures in a row',
    });
    expect(nextCheckView({ ...later, hintMinutes: 120 }, now, { up: true, pollSeconds: 15 })).toMatchObject({
      why: 'the feed asks to be read every 120 min at most',
    });
    expect(nextCheckView({ ...later, status: 'paused' }, now, { up: true, pollSeconds: 15 })).toEqual({
      text: 'not while paused',
      why: null,
      due: false,
    });
  });
});
