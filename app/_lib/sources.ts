/** The sources offered by the search filter: the most frequent ones, cached for a minute. */
import type { Db } from '../../lib/db/client';
import type { SourceOption } from '../_components/filters';

let cache: { at: number; value: SourceOption[] } | undefined;

export async function topSources(db: Db, limit = 25): Promise<SourceOption[]> {
  if (cache && Date.now() - cache.at < 60_000) return cache.value;
  const rows = await db.article.groupBy({ by: ['source'], _count: { _all: true }, orderBy: { _count: { source: 'desc' } }, take: limit });
  const value = rows.map((r) => ({ name: r.source, articles: r._count._all }));
  cache = { at: Date.now(), value };
  return value;
}
