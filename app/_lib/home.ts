/** The home page's corpus summary. */
import { services } from './services';

export interface CorpusSummary {
  articles: number;
  sources: number;
  latest: string | null;
}

export async function corpusSummary(): Promise<CorpusSummary | null> {
  try {
    const { db } = await services();
    const [articles, sources, latest] = await Promise.all([
      db.article.count(),
      db.article.groupBy({ by: ['source'] }).then((r) => r.length),
      db.article.findFirst({ where: { publishedAt: { not: null } }, orderBy: { publishedAt: 'desc' }, select: { publishedAt: true } }),
    ]);
    return { articles, sources, latest: latest?.publishedAt?.toISOString() ?? null };
  } catch {
    return null; // the search box works (and explains) even when the database does not answer
  }
}
