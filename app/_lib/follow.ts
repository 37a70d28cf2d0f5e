/**
 * Follow a claim: a search as an Atom feed. Each time a feed reader polls it, the search runs again;
 * the real matches among its results (`worthFollowing`: at least half of the query's words, rarer
 * words weighing more, and a relevance not far below the best result's — a feed pushes what it
 * carries, so it asks more than the results page) that it has not reported before become new entries. The feed lists them newest first (by
 * publication date). An entry carries the verdict of that moment only where the verdict committed
 * to one (supported, refuted, mixed) and read that entry as evidence for or against the claim.
 * State lives in follows / follow_entries.
 *
 * Reads cannot fill the database (a GET must not create rows without bound): a followed search is identified by its normalised query
 * and the filters that choose its articles (the recency half-life is not one: the feed is newest
 * first), so polls that differ in anything else are the same follow; and a client may have at most
 * FOLLOWS_PER_CLIENT followed searches (counted by a keyed hash of its address): a poll that would
 * create one more is refused (429) without writing anything.
 */
import crypto from 'node:crypto';
import { isBusyError } from '../../crawler';
import type { Db } from '../../lib/db/client';
import { createLogger } from '../../lib/log';
import { formatDay } from '../../lib/web/time-format';
import { createError } from '../../lib/errors';
import { bm25Terms, termCoverage, toInstant } from '../../ranking';
import type { SearchParams, SearchResponse, SearchResult } from '../../ranking/types';
import type { FollowQuery } from '../api/follow/schema';
import { atomFeed, uuidUrn, type AtomEntry } from './atom';
import { runSearch } from './search';
import { searchHref } from './search-url';
import { auth, services } from './services';

const log = createLogger('follow');

/** Results each poll reads (by relevance, the server's default recency); the real matches among them become entries. */
export const FOLLOW_K = 50;
/** Entries kept per followed search (the oldest are dropped), and shown in the feed. */
const KEEP_ENTRIES = 200;
const SHOWN_ENTRIES = 50;
/** A followed search nobody polled for this long is forgotten. */
const FORGET_AFTER_DAYS = 180;
/** Followed searches one client (address) may have. */
export const FOLLOWS_PER_CLIENT = 50;
/**
 * A feed entry holds at least this share of the query's words (two of them at least, when it has two
 * or more), each word weighted by how rare it is among the search's results (log(1 + n/df)): the word
 * that sets the claim apart ("Google") counts for more than those every result has ("profit")…
 */
export const FOLLOW_MIN_COVERAGE = 0.5;
/** …and at least this share of the best result's relevance (the search's own measure). */
export const FOLLOW_MIN_RELEVANCE_SHARE = 0.35;
/** Verdicts that say something: an abstention (not enough evidence) is not stamped on entries. */
const COMMITTED = new Set(['SUPPORTED', 'REFUTED', 'MIXED']);

const LABEL: Record<string, string> = {
  SUPPORTED: 'supported',
  REFUTED: 'refuted',
  MIXED: 'mixed evidence',
  NOT_ENOUGH_EVIDENCE: 'not enough evidence',
};

/**
 * "As of" on a followed search: the feed reports what is new at each poll, so recency counts from the
 * poll, but nothing published after the "as of" day may appear: the day becomes the `to` date (when
 * it is the earlier bound) and asOf itself is dropped.
 */
export function asOfAsTo<T extends { asOf?: string | undefined; to?: string | undefined }>(q: T): Omit<T, 'asOf'> {
  const { asOf, ...rest } = q;
  const bound = toInstant(asOf, 'end');
  const to = toInstant(rest.to, 'end');
  return bound && (!to || bound < to) ? { ...rest, to: asOf } : rest;
}

/** The query as the follow's identity sees it: Unicode-normalised, lower-cased, spaces collapsed. */
export function normaliseQuery(q: string): string {
  return q.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The followed search's identity: its normalised query and the filters that choose its articles
 * (from, to with asOf folded in, maxAgeDays, sources in any order). Paging, sort and the recency
 * half-life are left out. `params` is the canonical query string for its links, as given.
 */
export function followKey(query: FollowQuery): { id: string; params: string } {
  const q = asOfAsTo(query);
  const filters = { from: q.from, to: q.to, maxAgeDays: q.maxAgeDays };
  const sources = q.sources?.length ? [...new Set(q.sources.map((s) => s.trim()))].sort() : undefined;
  const identity = searchHref({ q: normaliseQuery(q.q), ...filters, sources }).split('?')[1] ?? '';
  const params = searchHref({ q: q.q, ...filters, sources: q.sources }).split('?')[1] ?? '';
  return { id: crypto.createHash('sha256').update(identity).digest('hex').slice(0, 32), params };
}

export function followHref(q: Pick<FollowQuery, 'q'> & Partial<FollowQuery>): string {
  const { params } = followKey({
    halfLifeDays: undefined,
    asOf: undefined,
    from: undefined,
    to: undefined,
    maxAgeDays: undefined,
    sources: undefined,
    ...q,
  });
  return `/api/follow?${params}`;
}

/** Why there was no verdict, for each verdictStatus of the search response (older entries may hold any of them). */
const NO_VERDICT: Record<string, string> = {
  question: 'no verdict (a question, not a claim)',
  keywords: 'no verdict (keywords, not a claim)',
  no_match: 'no verdict (nothing in the archive matched)',
  disabled: 'no verdict (switched off for this search)',
  unavailable: 'no verdict (the verdict model was unavailable)',
};

export function verdictText(status: string, label: string | null, confidence: number | null): string {
  if (status === 'ok' && (!label || !COMMITTED.has(label))) return 'no verdict (not enough evidence to decide)';
  if (status !== 'ok' || !label) return NO_VERDICT[status] ?? 'no verdict (no verdict model configured)';
  return `${LABEL[label] ?? label.toLowerCase()}${confidence !== null ? ` (${Math.round(confidence * 100)}% confidence)` : ''}`;
}

/** Whether a verdict state is one worth stamping on an entry: the model committed to a label. */
export const committed = (status: string, label: string | null) => status === 'ok' && label !== null && COMMITTED.has(label);

type EntryRow = Awaited<ReturnType<Db['followEntry']['findMany']>>[number];

type Passage = Pick<SearchResult, 'title' | 'text' | 'scores'>;

/**
 * Which results belong in the feed (same order as given): those holding FOLLOW_MIN_COVERAGE of the
 * query's words by weight (each word weighted by its rarity among these results) and two of them at
 * least, with FOLLOW_MIN_RELEVANCE_SHARE of the best result's relevance. The results page also lists
 * looser matches below the good ones; a feed pushes each entry to its reader, so stories sharing no
 * word with a ferry claim (close only to a dense encoder that finds everything close), or 1987
 * earnings reports sharing "first", "profit" and "report" with a claim about Google, must not become
 * entries. Pure.
 */
export function worthFollowing(results: readonly Passage[], terms: readonly string[]): boolean[] {
  const words = [...new Set(terms)];
  if (!words.length) return results.map(() => false);
  const holds = results.map((r) => words.map((w) => termCoverage([w], r.title, r.text) > 0));
  const weight = words.map((_, j) => Math.log(1 + results.length / Math.max(1, holds.filter((h) => h[j]).length)));
  const total = weight.reduce((a, w) => a + w, 0);
  const relevance = (r: Passage) => r.scores.relevance ?? r.scores.fused;
  const best = Math.max(0, ...results.map(relevance));
  return results.map((r, i) => {
    const held = holds[i]!;
    const covered = weight.reduce((a, w, j) => a + (held[j] ? w : 0), 0) / total;
    return (
      held.filter(Boolean).length >= Math.min(2, words.length) &&
      covered >= FOLLOW_MIN_COVERAGE - 1e-9 &&
      relevance(r) >= FOLLOW_MIN_RELEVANCE_SHARE * best - 1e-12
    );
  });
}

/** The passages the verdict read as supporting or refuting the claim. */
function judgedSnippets(r: SearchResponse): Set<number> {
  const e = r.verdict?.evidence;
  return new Set([...(e?.supports ?? []), ...(e?.refutes ?? [])].map((s) => s.snippetId));
}

/** The results this followed search has not reported yet, as entry rows (the verdict now, where it committed). */
function newEntries(id: string, r: SearchResponse, known: Set<number>, now: Date): Omit<EntryRow, 'id'>[] {
  const out: Omit<EntryRow, 'id'>[] = [];
  const worth = worthFollowing(r.results, bm25Terms(r.query));
  const verdictSaid = committed(r.verdictStatus, r.verdict?.label ?? null);
  const judged = judgedSnippets(r);
  for (const [i, res] of r.results.entries()) {
    if (known.has(res.articleId) || !worth[i]) continue;
    const stamped = verdictSaid && judged.has(res.snippetId);
    known.add(res.articleId);
    const text = res.evidence.length ? res.evidence.map((e) => e.text).join(' … ') : res.text;
    out.push({
      followId: id,
      articleId: res.articleId,
      title: res.title,
      url: res.url,
      source: res.source,
      publishedAt: res.publishedAt ? new Date(res.publishedAt) : null,
      text: text.slice(0, 2000),
      firstSeenAt: now,
      verdictStatus: r.verdictStatus,
      verdictLabel: stamped ? r.verdict!.label : null,
      verdictConfidence: stamped ? r.verdict!.confidence : null,
    });
  }
  return out;
}

async function prune(db: Db, id: string, now: Date): Promise<void> {
  await db.follow.deleteMany({ where: { polledAt: { lt: new Date(now.getTime() - FORGET_AFTER_DAYS * 86_400_000) } } });
  const old = await db.followEntry.findMany({
    where: { followId: id },
    orderBy: [{ firstSeenAt: 'desc' }, { id: 'desc' }],
    skip: KEEP_ENTRIES,
    select: { id: true },
  });
  if (old.length) await db.followEntry.deleteMany({ where: { id: { in: old.map((o) => o.id) } } });
}

export interface FollowPoll {
  id: string;
  params: string;
  response: SearchResponse;
  added: number;
  entries: Omit<EntryRow, 'id'>[];
  createdAt: Date;
  /** The new entries could not be recorded this time (the database was busy): they are shown, and recorded at a later poll. */
  unrecorded: boolean;
}

/** Newest first: by publication date (undated last), then by when the feed first reported it. */
export const byNewest = (a: Pick<EntryRow, 'publishedAt' | 'firstSeenAt' | 'articleId'>, b: typeof a) =>
  (b.publishedAt?.getTime() ?? -Infinity) - (a.publishedAt?.getTime() ?? -Infinity) ||
  b.firstSeenAt.getTime() - a.firstSeenAt.getTime() ||
  b.articleId - a.articleId;

/** A keyed hash of a client's address: enough to count its follows, not enough to recover the address. */
export function clientTag(secret: string, client: string): string {
  return crypto.createHmac('sha256', secret).update(`follow-client:${client}`).digest('base64url').slice(0, 22);
}

/** What a poll uses (the web process: its services; tests: a test database and a stub search). */
export interface FollowDeps {
  db: Db;
  /** Keys the client tags (the session secret). */
  secret: string;
  search: (q: SearchParams) => Promise<SearchResponse>;
}

async function defaultDeps(): Promise<FollowDeps> {
  const [{ db }, { secret }] = await Promise.all([services(), auth()]);
  return { db, secret, search: runSearch };
}

/**
 * Runs the followed search now and records what is new, in one transaction. A poll that would create
 * a followed search its client cannot have (FOLLOWS_PER_CLIENT) is refused before anything is written.
 * A database too busy to write (SQLite's lock held by the indexer) does not fail the feed: the new
 * entries are shown and recorded at the next poll.
 */
export async function pollFollow(q: FollowQuery, client: string, now = new Date(), deps?: FollowDeps): Promise<FollowPoll> {
  const { db, secret, search } = deps ?? (await defaultDeps());
  const { id, params } = followKey(q);
  const follow = await db.follow.findUnique({ where: { id } });
  const createdBy = follow ? null : clientTag(secret, client);
  if (createdBy) {
    const held = await db.follow.count({ where: { createdBy } });
    if (held >= FOLLOWS_PER_CLIENT)
      throw createError(
        'RATE_LIMITED',
        `this address already follows ${held} searches (at most ${FOLLOWS_PER_CLIENT}): a followed search nobody polls for ${FORGET_AFTER_DAYS} days is forgotten`,
        { retryAfterSeconds: 86_400, limit: FOLLOWS_PER_CLIENT },
      );
  }
  const { halfLifeDays: _recency, ...filters } = asOfAsTo(q);
  const response = await search({ ...filters, k: FOLLOW_K, page: 1, sort: 'relevance' });
  const recorded = await db.followEntry.findMany({
    where: { followId: id },
    orderBy: [{ firstSeenAt: 'desc' }, { id: 'desc' }],
    take: KEEP_ENTRIES,
  });
  const fresh = newEntries(id, response, new Set(recorded.map((e) => e.articleId)), now);
  let unrecorded = false;
  try {
    await db.$transaction(async (tx) => {
      await tx.follow.upsert({ where: { id }, create: { id, params, polledAt: now, createdBy }, update: { polledAt: now } });
      for (const e of fresh)
        await tx.followEntry.upsert({ where: { followId_articleId: { followId: id, articleId: e.articleId } }, update: {}, create: e });
    });
    await prune(db, id, now);
  } catch (e) {
    if (
      !isBusyError(e) &&
      !/timed out|Unable to start a transaction|P2028|P1008/i.test(`${(e as { code?: string }).code ?? ''} ${(e as Error).message}`)
    )
      throw e;
    log.warn('follow: database busy, new entries not recorded this time', { follow: id, fresh: fresh.length });
    unrecorded = true;
  }
  const entries = [...fresh, ...recorded].sort(byNewest).slice(0, SHOWN_ENTRIES);
  return { id, params, response, added: fresh.length, entries, createdAt: follow?.createdAt ?? now, unrecorded };
}

/** The Atom document of a poll. */
export function followAtom(p: FollowPoll, origin: string): string {
  const r = p.response;
  const current = verdictText(r.verdictStatus, r.verdict?.label ?? null, r.verdict?.confidence ?? null);
  const entries: AtomEntry[] = p.entries.map((e) => {
    const when = e.publishedAt ? `published ${formatDay(e.publishedAt)}` : 'publication date unknown';
    const base = {
      id: uuidUrn(`follow:${p.id}:article:${e.articleId}`),
      title: e.title,
      updated: e.firstSeenAt,
      published: e.publishedAt,
      link: /^https?:\/\//i.test(e.url) ? e.url : `${origin}/search?${p.params}`,
      authorName: e.source,
    };
    // Entries recorded before verdicts were stamped only when committed may hold an abstention.
    if (!committed(e.verdictStatus, e.verdictLabel))
      return { ...base, summary: `${e.source}, ${when}.`, content: `${e.text}\n\n${e.source}, ${when}.` };
    const then = verdictText(e.verdictStatus, e.verdictLabel, e.verdictConfidence);
    return {
      ...base,
      summary: `Verdict when this appeared: ${then}. ${e.source}, ${when}.`,
      content: `${e.text}\n\n${e.source}, ${when}.\nVerdict on “${r.query}” when this coverage appeared: ${then}; this report was part of its evidence.`,
      categories: [{ term: `verdict:${e.verdictLabel!.toLowerCase()}`, label: `Verdict at the time: ${then}` }],
    };
  });
  const updated = p.entries.reduce((max, e) => (e.firstSeenAt > max ? e.firstSeenAt : max), p.createdAt);
  return atomFeed({
    id: uuidUrn(`follow:${p.id}`),
    title: `Quin news: “${r.query}”`,
    subtitle: `New coverage matching this ${r.kind === 'keywords' ? 'search' : r.kind}. Verdict now: ${current}.`,
    updated,
    selfUrl: `${origin}/api/follow?${p.params}`,
    alternateUrl: `${origin}/search?${p.params}`,
    authorName: 'Quin news',
    generator: { name: 'Quin news' },
    entries,
  });
}
