/**
 * Followed searches against a real database, with a stub search (the results a poll would get):
 * polls cannot create more than one follow per normalised query and filters (reads must not fill
 * the database: 100 GETs varying only halfLifeDays once made 100 follows), a client has at most FOLLOWS_PER_CLIENT, and the feed
 * holds only real matches, newest first, with a verdict only where one was committed and read the
 * entry as evidence (a verdict the entry played no part in is not stamped on it).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isQuinError } from '../../lib/errors';
import type { SearchParams, SearchResponse, SearchResult } from '../../ranking/types';
import { createTestDb, type TestDb } from '../../testing/db';
import type { FollowQuery } from '../api/follow/schema';
import { followAtom, FOLLOWS_PER_CLIENT, pollFollow, type FollowDeps } from './follow';

const CLAIM = 'The harbour ferry service was cancelled after the storm';

function result(articleId: number, title: string, text: string, publishedAt: string | null, relevance = 0.5, dense = 0.3): SearchResult {
  return {
    snippetId: articleId * 10,
    articleId,
    position: 0,
    sentenceStart: 0,
    sentenceEnd: 1,
    title,
    url: `https://news.example/${articleId}`,
    source: 'Example News',
    publishedAt,
    text,
    evidence: [],
    score: 0.5,
    scores: { bm25: 1, bm25Rank: 1, dense, denseRank: 1, fused: relevance, rerank: null, relevance, recency: 1, final: relevance },
  };
}

const RESULTS: SearchResult[] = [
  result(1, 'Harbour ferry cancelled', 'The harbour ferry service was cancelled after the storm damaged the pier.', '2024-05-01T00:00:00Z'),
  result(2, 'Bond prices ease', 'Treasury bond prices eased after the storm of selling.', '1987-03-01T00:00:00Z'),
  result(3, 'Ferry back in service', 'The ferry service to the harbour resumed on Monday after storm repairs.', '2024-05-20T00:00:00Z'),
  // Close to the claim only for a dense encoder: no word in common.
  result(4, 'Island cut off', 'Islanders were cut off for a week.', null, 0.5, 0.9),
  result(5, 'Grain shipments', 'Grain shipments were cancelled.', '1987-06-01T00:00:00Z'),
  result(6, 'Ferries and storms', 'Storm warnings cancelled the harbour ferry crossings again.', null),
  // Enough of the words, but far less relevant than the best result by the search's own measure.
  result(7, 'Storm report', 'The harbour storm service report: the ferry was cancelled, one of many.', '2024-05-25T00:00:00Z', 0.1),
];

let t: TestDb;
let searches: SearchParams[] = [];
let verdict: SearchResponse['verdict'] = null;
const deps = (): FollowDeps => ({
  db: t.db,
  secret: 'test-secret',
  search: async (q) => {
    searches.push(q);
    return {
      query: q.q,
      kind: 'claim',
      page: 1,
      k: q.k,
      total: RESULTS.length,
      results: RESULTS,
      verdict,
      verdictStatus: 'ok',
      halfLifeDays: 365,
      asOf: new Date().toISOString(),
      timingsMs: {},
      models: { encoder: 'stub', reranker: null, nli: 'stub', bm25: 'fts5', dense: true },
    };
  },
});
const follow = (q: Partial<FollowQuery> & { q: string }): FollowQuery => ({
  halfLifeDays: undefined,
  asOf: undefined,
  from: undefined,
  to: undefined,
  maxAgeDays: undefined,
  sources: undefined,
  ...q,
});
/** A verdict that read article 1's passage as support and article 6's as neutral. */
const verdictOf = (label: 'SUPPORTED' | 'NOT_ENOUGH_EVIDENCE'): SearchResponse['verdict'] => {
  const read = (r: SearchResult) => ({
    snippetId: r.snippetId,
    sentence: r.text,
    title: r.title,
    url: r.url,
    source: r.source,
    publishedAt: r.publishedAt,
    stance: 'supports' as const,
    confidence: 0.8,
    weight: 0.4,
  });
  return {
    label,
    confidence: 0.8,
    evidence: { supports: [read(RESULTS[0]!)], refutes: [], neutral: [{ ...read(RESULTS[5]!), stance: 'neutral' }] },
    model: 'stub',
  };
};

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t?.cleanup());
beforeEach(async () => {
  searches = [];
  verdict = null;
  await t.db.followEntry.deleteMany({});
  await t.db.follow.deleteMany({});
});

describe('followed searches: reads cannot fill the database', () => {
  it('100 polls varying only halfLifeDays (and the query’s case and spaces) make one follow', async () => {
    for (let i = 0; i < 100; i++) {
      const q = i % 2 ? CLAIM : `  ${CLAIM.toUpperCase()}   `;
      await pollFollow(follow({ q, halfLifeDays: i % 3 ? i + 1 : 'off' }), '10.0.0.1', new Date(), deps());
    }
    expect(await t.db.follow.count()).toBe(1);
    // The entries of the first poll, never again: the 3 real matches of the 7 results.
    expect(await t.db.followEntry.count()).toBe(3);
    // The half-life plays no part in the feed's search (it is newest first).
    expect(searches.every((s) => s.halfLifeDays === undefined)).toBe(true);
  });

  it('the filters that choose articles make distinct follows; sources in any order are one', async () => {
    await pollFollow(follow({ q: CLAIM, sources: ['A', 'B'] }), '10.0.0.1', new Date(), deps());
    await pollFollow(follow({ q: CLAIM, sources: ['B', 'A'] }), '10.0.0.1', new Date(), deps());
    await pollFollow(follow({ q: CLAIM, to: '2024-06-01' }), '10.0.0.1', new Date(), deps());
    await pollFollow(follow({ q: CLAIM, asOf: '2024-06-01' }), '10.0.0.1', new Date(), deps());
    expect(await t.db.follow.count()).toBe(2);
  });

  it(`a client has at most ${FOLLOWS_PER_CLIENT} follows: one more is refused without a write; others and polls go on`, async () => {
    for (let i = 0; i < FOLLOWS_PER_CLIENT; i++) await pollFollow(follow({ q: `${CLAIM} ${i}` }), '10.0.0.2', new Date(), deps());
    const before = { follows: await t.db.follow.count(), entries: await t.db.followEntry.count(), searches: searches.length };
    const refused = await pollFollow(follow({ q: `${CLAIM} one too many` }), '10.0.0.2', new Date(), deps()).catch((e: unknown) => e);
    expect(isQuinError(refused, 'RATE_LIMITED')).toBe(true);
    expect((refused as Error).message).toContain(`at most ${FOLLOWS_PER_CLIENT}`);
    expect({ follows: await t.db.follow.count(), entries: await t.db.followEntry.count(), searches: searches.length }).toEqual(before);
    // Its own follows still answer, and another client may start one.
    await pollFollow(follow({ q: `${CLAIM} 7` }), '10.0.0.2', new Date(), deps());
    await pollFollow(follow({ q: `${CLAIM} one too many` }), '10.0.0.3', new Date(), deps());
    expect(await t.db.follow.count()).toBe(FOLLOWS_PER_CLIENT + 1);
    // The address itself is not stored.
    const owners = await t.db.follow.findMany({ select: { createdBy: true }, distinct: ['createdBy'] });
    expect(owners.map((o) => o.createdBy)).not.toContain('10.0.0.2');
  });
});

describe('followed searches: only real matches, newest first, a verdict only when committed', () => {
  it('keeps the results holding half the claim’s words and a relevance not far below the best, newest first, undated last', async () => {
    const poll = await pollFollow(follow({ q: CLAIM }), '10.0.0.4', new Date(), deps());
    expect(poll.entries.map((e) => e.articleId)).toEqual([3, 1, 6]);
    expect(poll.entries.map((e) => e.title)).not.toContain('Bond prices ease');
  });

  it('stamps the verdict only when it committed to a label, and only on the entries it read as evidence', async () => {
    verdict = verdictOf('NOT_ENOUGH_EVIDENCE');
    const abstained = await pollFollow(follow({ q: CLAIM }), '10.0.0.4', new Date(), deps());
    expect(abstained.entries.every((e) => e.verdictLabel === null)).toBe(true);
    const xml = followAtom(abstained, 'http://127.0.0.1:3000');
    expect(xml).not.toContain('<category');
    expect(xml).not.toContain('Verdict when this appeared');
    expect(xml).toContain('Verdict now: no verdict (not enough evidence to decide)');

    await t.db.followEntry.deleteMany({});
    verdict = verdictOf('SUPPORTED');
    const supported = await pollFollow(follow({ q: CLAIM }), '10.0.0.4', new Date(), deps());
    expect(supported.entries.map((e) => [e.articleId, e.verdictLabel])).toEqual([
      [3, null],
      [1, 'SUPPORTED'],
      [6, null],
    ]);
    const atom = followAtom(supported, 'http://127.0.0.1:3000');
    expect(atom.match(/<category term="verdict:supported"/g)).toHaveLength(1);
    expect(atom).toContain('this report was part of its evidence');
  });
});
