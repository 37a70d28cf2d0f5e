import { describe, expect, it } from 'vitest';
import { feedState, hasProblem, type FeedStateInput } from './state';

const items = (over: Partial<FeedStateInput['recentItems']> = {}) => ({
  settled: 0,
  stored: 0,
  failed: 0,
  pending: 0,
  lastError: null,
  ...over,
});
const base: FeedStateInput = {
  status: 'active',
  consecutiveFailures: 0,
  lastSuccessAt: '2024-06-01T00:00:00Z',
  lastError: null,
  itemsSeen: 10,
  recentItems: items({ settled: 10, stored: 10 }),
};

describe('feed state', () => {
  it('a feed read fine whose items all fail is degraded, with the reason (the "Science twis" case: 69 items, 0 articles, 50 failed)', () => {
    const v = feedState({
      ...base,
      itemsSeen: 69,
      recentItems: items({
        settled: 50,
        failed: 50,
        pending: 19,
        lastError: 'page unusable (HTTP 403) and the item has no text of its own',
      }),
    });
    expect(v.state).toBe('degraded');
    expect(v.reason).toBe(
      'the feed is read, but none of its latest 50 items became an article: page unusable (HTTP 403) and the item has no text of its own',
    );
    expect(hasProblem(v.state)).toBe(true);
  });

  it('mostly failing items are degraded; a single failure among many stored is not', () => {
    expect(feedState({ ...base, recentItems: items({ settled: 10, stored: 4, failed: 6 }) })).toMatchObject({
      state: 'degraded',
      reason: 'the feed is read, but 6 of its latest 10 items did not become articles',
    });
    expect(feedState({ ...base, recentItems: items({ settled: 10, stored: 9, failed: 1 }) }).state).toBe('ok');
    expect(feedState({ ...base, recentItems: items({ settled: 3, stored: 2, failed: 1 }) }).state).toBe('ok');
    expect(feedState({ ...base, recentItems: items({ settled: 1, failed: 1 }) }).state).toBe('degraded');
  });

  it('a feed that lists no items is degraded; one never checked is new', () => {
    expect(feedState({ ...base, itemsSeen: 0, recentItems: items() })).toMatchObject({
      state: 'degraded',
      reason: 'the feed is read, but it lists no items',
    });
    expect(feedState({ ...base, lastSuccessAt: null, itemsSeen: 0, recentItems: items() })).toEqual({
      state: 'new',
      reason: 'not checked yet',
    });
  });

  it('paused, broken and failing come before the items, and name the error', () => {
    const bad = items({ settled: 5, failed: 5 });
    expect(feedState({ ...base, status: 'paused', consecutiveFailures: 3, recentItems: bad }).state).toBe('paused');
    expect(feedState({ ...base, status: 'broken', consecutiveFailures: 5, lastError: 'HTTP 500', recentItems: bad })).toEqual({
      state: 'broken',
      reason: '5 failed checks in a row: HTTP 500',
    });
    expect(feedState({ ...base, consecutiveFailures: 1, lastError: 'timeout', recentItems: bad })).toEqual({
      state: 'failing',
      reason: '1 failed check in a row: timeout',
    });
    expect(hasProblem('ok') || hasProblem('new') || hasProblem('paused')).toBe(false);
  });
});
