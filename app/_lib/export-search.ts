/** The export's I/O: run the search, read each article's provenance, and make the download. */
import type { ExportQuery } from '../api/export/schema';
import { exportDocument, toCsv, type ArticleProvenance } from './export';
import { runSearch } from './search';
import { searchHref } from './search-url';
import { services } from './services';

async function provenanceOf(articleIds: number[]): Promise<Map<number, ArticleProvenance>> {
  const { db } = await services();
  const rows = await db.article.findMany({
    where: { id: { in: [...new Set(articleIds)] } },
    select: { id: true, publishedAtSource: true, fetchedAt: true, textSource: true, feed: { select: { url: true } } },
  });
  return new Map(
    rows.map((a) => [
      a.id,
      {
        publishedAtSource: a.publishedAtSource,
        fetchedAt: a.fetchedAt.toISOString(),
        textSource: a.textSource,
        feedUrl: a.feed?.url ?? null,
      },
    ]),
  );
}

const slug = (q: string) =>
  q
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40) || 'search';

export async function exportSearch(q: ExportQuery, origin: string): Promise<Response> {
  const { format, ...query } = q;
  const response = await runSearch(query);
  const doc = exportDocument(response, await provenanceOf(response.results.map((r) => r.articleId)), {
    searchUrl: origin + searchHref(query),
  });
  const name = `quin-${slug(response.query)}-${doc.exportedAt.slice(0, 10)}.${format}`;
  const headers = { 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'no-store' };
  if (format === 'json')
    return new Response(JSON.stringify(doc, null, 2), { headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } });
  return new Response(toCsv(doc), { headers: { ...headers, 'content-type': 'text/csv; charset=utf-8; header=present' } });
}
