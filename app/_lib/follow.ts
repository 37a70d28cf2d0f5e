/**
 * Follow a claim: a search as an Atom feed. Each time a feed reader polls it, the search runs again
 * (relevance, the top FOLLOW_K articles, with the verdict); articles it has not reported before become
 * new entries, each stamped with the verdict's state at that moment, so the reader shows when new
 * evidence arrived and what the verdict said then. State lives in follows / follow_entries.
 */
import crypto from 'node:crypto';
import { isBusyError } from '../../crawler';
import type { Db } from '../../lib/db/client';
import { createLogger } from '../../lib/log';
import { formatDay } from '../../lib/web/time-format';
import { toInstant } from '../../ranking';
import type { SearchResponse } from '../../ranking/types';
import type { FollowQuery } from '../api/follow/schema';
import { atomFeed, uuidUrn, type AtomEntry } from './atom';
import { runSearch } from './search';
import { searchHref } from './search-url';
import { services } from './services';

const log = createLogger('follow');

export const FOLLOW_K = 20;
/** Entries kept per followed search (the oldest are dropped), and shown in the feed. */
const KEEP_ENTRIES = 200;
const SHOWN_ENTRIES = 50;
/** A followed search nobody polled for this long is forgotten. */
const FORGET_AFTER_DAYS = 180;

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

/** The followed search's identity: its canonical filters (paging and sort left out, asOf folded into `to`). */
export function followKey(query: FollowQuery): { id: string; params: string } {
  const q = asOfAsTo(query);
  const href = searchHref({ q: q.q, halfLifeDays: q.halfLifeDays, from: q.from, to: q.to, maxAgeDays: q.maxAgeDays, sources: q.sources });
  const params = href.split('?')[1] ?? '';
  return { id: crypto.createHash('sha256').update(params).digest('hex').slice(0, 32), params };
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
};

export function verdictText(status: string, label: string | null, confidence: number | null): string {
  if (status !== 'ok' || !label) return NO_VERDICT[status] ?? 'no verdict (no verdict model configured)';
  return `${LABEL[label] ?? label.toLowerCase()}${confidence !== null ? ` (${Math.round(confidence * 100)}% confidence)` : ''}`;
}

type EntryRow = Awaited<ReturnType<Db['followEntry']['findMany']>>[number];

/** The results this followed search has not reported yet, as entry rows stamped with the verdict now. */
function newEntries(id: string, r: SearchResponse, known: Set<number>, now: Date): Omit<EntryRow, 'id'>[] {
  const out: Omit<EntryRow, 'id'>[] = [];
  for (const res of r.results) {
    if (known.has(res.articleId)) continue;
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
      verdictLabel: r.verdict?.label ?? null,
      verdictConfidence: r.verdict?.confidence ?? null,
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

const byNewest = (a: Omit<EntryRow, 'id'>, b: Omit<EntryRow, 'id'>) =>
  b.firstSeenAt.getTime() - a.firstSeenAt.getTime() || b.articleId - a.articleId;

/**
 * Runs the followed search now and records what is new, in one transaction. A database too busy to
 * write (SQLite's lock held by the indexer) does not fail the feed: the new entries are shown and
 * recorded at the next poll.
 */
export async function pollFollow(q: FollowQuery, now = new Date()): Promise<FollowPoll> {
  const { db } = await services();
  const { id, params } = followKey(q);
  const response = await runSearch({ ...asOfAsTo(q), k: FOLLOW_K, page: 1, sort: 'relevance' });
  const [follow, recorded] = await Promise.all([
    db.follow.findUnique({ where: { id } }),
    db.followEntry.findMany({ where: { followId: id }, orderBy: [{ firstSeenAt: 'desc' }, { id: 'desc' }], take: KEEP_ENTRIES }),
  ]);
  const fresh = newEntries(id, response, new Set(recorded.map((e) => e.articleId)), now);
  let unrecorded = false;
  try {
    await db.$transaction(async (tx) => {
      await tx.follow.upsert({ where: { id }, create: { id, params, polledAt: now }, update: { polledAt: now } });
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
    const then = verdictText(e.verdictStatus, e.verdictLabel, e.verdictConfidence);
    const when = e.publishedAt ? `published ${formatDay(e.publishedAt)}` : 'publication date unknown';
    return {
      id: uuidUrn(`follow:${p.id}:article:${e.articleId}`),
      title: e.title,
      updated: e.firstSeenAt,
      published: e.publishedAt,
      link: /^https?:\/\//i.test(e.url) ? e.url : `${origin}/search?${p.params}`,
      authorName: e.source,
      summary: `Verdict when this appeared: ${then}. ${e.source}, ${when}.`,
      content: `${e.text}\n\n${e.source}, ${when}.\nVerdict on “${r.query}” when this coverage appeared: ${then}.`,
      categories: [{ term: `verdict:${(e.verdictLabel ?? e.verdictStatus).toLowerCase()}`, label: `Verdict at the time: ${then}` }],
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
