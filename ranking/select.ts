/**
 * Filtering, ordering, per-article de-duplication and paging of ranked candidates, pure.
 */
import type { ResolvedRequest } from './request';

export interface Filterable {
  source: string;
  publishedAt: Date | null;
}

export interface Orderable {
  snippetId: number;
  publishedAt: Date | null;
  /** 0 = read by the reranker, 1 = below the reranker's depth (always after tier 0). */
  tier: number;
  final: number;
}

export type Filter = Pick<ResolvedRequest, 'from' | 'to' | 'sources'>;

/** Date bounds are inclusive; an undated snippet fails any date bound (its age cannot be shown). */
export function passesFilter(c: Filterable, f: Filter): boolean {
  if (f.sources && !f.sources.has(c.source.trim())) return false;
  if (!f.from && !f.to) return true;
  if (!c.publishedAt) return false;
  const t = c.publishedAt.getTime();
  return (!f.from || t >= f.from.getTime()) && (!f.to || t <= f.to.getTime());
}

export function hasFilter(f: Filter): boolean {
  return Boolean(f.from || f.to || f.sources);
}

/** relevance: tier, then final score; newest: date (undated last), then final score. Ties by snippet id. */
export function sortRanked<T extends Orderable>(items: T[], sort: 'relevance' | 'newest'): T[] {
  const time = (d: Date | null) => (d ? d.getTime() : Number.NEGATIVE_INFINITY);
  return [...items].sort((a, b) =>
    sort === 'newest'
      ? time(b.publishedAt) - time(a.publishedAt) || b.final - a.final || a.snippetId - b.snippetId
      : a.tier - b.tier || b.final - a.final || a.snippetId - b.snippetId,
  );
}

/** Keeps at most `perArticle` items of each article, in order (0 = keep everything). */
export function limitPerArticle<T extends { articleId: number }>(items: readonly T[], perArticle: number): T[] {
  if (perArticle <= 0) return [...items];
  const seen = new Map<number, number>();
  return items.filter((it) => {
    const n = seen.get(it.articleId) ?? 0;
    seen.set(it.articleId, n + 1);
    return n < perArticle;
  });
}

export function pageOf<T>(items: readonly T[], page: number, k: number): T[] {
  return items.slice((page - 1) * k, page * k);
}
