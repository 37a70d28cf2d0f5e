/**
 * When a feed will really be checked: its next_check_at says when it becomes due, but only a running
 * worker checks it, at its next pass (every QUIN_WORKER_POLL_SECONDS). A failing feed waits longer
 * (backoff), and a feed may ask to be polled less often (RSS ttl, Cache-Control).
 */
import type { FeedHealth } from '../../crawler';
import { formatDuration } from '../../lib/web/time-format';
import { listWorkers } from '../../lib/web/worker-heartbeat';
import type { FeedDeps } from './feed-admin';

export interface WorkerView {
  up: boolean;
  pollSeconds: number;
}

export interface NextCheckView {
  /** Short: "at the next pass", "in 2 h", "not while paused". */
  text: string;
  /** Why, when it is not simply the interval: backoff, the feed's own hint, the worker being down. */
  why: string | null;
  due: boolean;
}

const pass = (w: WorkerView) => `at the worker's next pass (within ${formatDuration(w.pollSeconds)})`;

/** Pure: a feed's next check as the admin should read it. */
export function nextCheckView(
  f: Pick<FeedHealth, 'status' | 'nextCheckAt' | 'consecutiveFailures' | 'intervalMinutes' | 'hintMinutes'>,
  now: Date,
  w: WorkerView,
): NextCheckView {
  if (f.status === 'paused') return { text: 'not while paused', why: null, due: false };
  const wait = (Date.parse(f.nextCheckAt) - now.getTime()) / 1000;
  const due = wait <= 0;
  const text = due ? (w.up ? pass(w) : 'due, waiting for the worker') : `in ${formatDuration(wait)}`;
  const whys: string[] = [];
  if (!w.up) whys.push('the background worker is not running (`npm start` runs it, or `npx quin worker`)');
  if (f.consecutiveFailures > 0)
    whys.push(`backing off after ${f.consecutiveFailures === 1 ? 'a failure' : `${f.consecutiveFailures} failures in a row`}`);
  else if (f.hintMinutes && f.hintMinutes > f.intervalMinutes) whys.push(`the feed asks to be read every ${f.hintMinutes} min at most`);
  return { text, why: whys.length ? whys.join('; ') : null, due };
}

export async function workerView({ db, config }: FeedDeps): Promise<WorkerView> {
  const workers = await listWorkers(db);
  return { up: workers.some((w) => w.up), pollSeconds: config.workerPollSeconds };
}

/** For notices after "Check now", "Add": when the check will really happen. */
export async function whenCheckedText(deps: FeedDeps): Promise<string> {
  const w = await workerView(deps);
  return w.up ? pass(w) : 'when the background worker runs (it is not running now: `npm start` runs it, or `npx quin worker`)';
}
