/**
 * What a feed's health row means, in one word and one sentence, for the dashboard and `quin feeds
 * list`. A feed that fetches fine but whose items do not become articles is not "ok": it is
 * "degraded", with the reason. Pure.
 */

export type FeedState = 'paused' | 'broken' | 'failing' | 'degraded' | 'new' | 'ok';

/** What became of the feed's latest items (at most RECENT_ITEMS, newest first by first sighting). */
export interface RecentItems {
  /** Items whose article is settled: stored, duplicate (already stored) or failed. */
  settled: number;
  stored: number;
  failed: number;
  pending: number;
  /** Why the newest failed item failed. */
  lastError: string | null;
}

export const RECENT_ITEMS = 50;

export interface FeedStateInput {
  status: string;
  consecutiveFailures: number;
  lastSuccessAt: string | null;
  lastError: string | null;
  itemsSeen: number;
  recentItems: RecentItems;
}

export interface FeedStateView {
  state: FeedState;
  /** Why the state is not "ok" (null when it is). */
  reason: string | null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Most of the recent settled items failed (at least two, or every one of them). */
function mostlyFailing(r: RecentItems): boolean {
  if (r.failed === 0 || r.settled === 0) return false;
  return r.failed === r.settled || (r.failed >= 2 && r.failed * 2 >= r.settled);
}

export function feedState(f: FeedStateInput): FeedStateView {
  const failures = plural(f.consecutiveFailures, 'failed check');
  if (f.status === 'paused') return { state: 'paused', reason: 'paused by an admin: not checked until resumed' };
  if (f.status === 'broken') return { state: 'broken', reason: `${failures} in a row: ${f.lastError ?? 'unknown error'}` };
  if (f.consecutiveFailures > 0) return { state: 'failing', reason: `${failures} in a row: ${f.lastError ?? 'unknown error'}` };
  const r = f.recentItems;
  if (mostlyFailing(r)) {
    const why = r.lastError ? `: ${r.lastError}` : '';
    const what =
      r.failed === r.settled
        ? `none of its latest ${plural(r.settled, 'item')} became an article`
        : `${r.failed} of its latest ${plural(r.settled, 'item')} did not become articles`;
    return { state: 'degraded', reason: `the feed is read, but ${what}${why}` };
  }
  if (f.lastSuccessAt && f.itemsSeen === 0) return { state: 'degraded', reason: 'the feed is read, but it lists no items' };
  if (!f.lastSuccessAt) return { state: 'new', reason: 'not checked yet' };
  return { state: 'ok', reason: null };
}

/** Whether the dashboard's "only feeds with problems" keeps the feed. */
export function hasProblem(state: FeedState): boolean {
  return state === 'broken' || state === 'failing' || state === 'degraded';
}
