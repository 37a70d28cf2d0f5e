/**
 * Snippet rows for the pipeline, read through the Prisma client (SQLite or PostgreSQL alike).
 * Two reads per query: light metadata for every candidate (filters, de-duplication, decay), then full
 * rows only for what is shown, reranked or judged. Ids the database no longer has (an index a little
 * behind a deletion) are simply absent from the maps.
 */
import type { Db } from '../lib/db/client';

export interface SnippetMeta {
  id: number;
  articleId: number;
  source: string;
  publishedAt: Date | null;
}

export interface SnippetRow extends SnippetMeta {
  position: number;
  sentenceStart: number;
  sentenceEnd: number;
  text: string;
  sentenceSpans: string;
  title: string;
  url: string;
}

// Well under SQLite's and PostgreSQL's bound-parameter limits.
const CHUNK = 5000;

async function chunked<T>(ids: readonly number[], read: (part: number[]) => Promise<T[]>): Promise<T[]> {
  const unique = [...new Set(ids)];
  const out: T[] = [];
  for (let i = 0; i < unique.length; i += CHUNK) out.push(...(await read(unique.slice(i, i + CHUNK))));
  return out;
}

export async function loadMeta(db: Db, ids: readonly number[]): Promise<Map<number, SnippetMeta>> {
  const rows = await chunked(ids, (part) =>
    db.snippet.findMany({ where: { id: { in: part } }, select: { id: true, articleId: true, source: true, publishedAt: true } }),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export async function loadRows(db: Db, ids: readonly number[]): Promise<Map<number, SnippetRow>> {
  const rows = await chunked(ids, (part) =>
    db.snippet.findMany({
      where: { id: { in: part } },
      select: {
        id: true,
        articleId: true,
        source: true,
        publishedAt: true,
        position: true,
        sentenceStart: true,
        sentenceEnd: true,
        text: true,
        sentenceSpans: true,
        title: true,
        article: { select: { canonicalUrl: true } },
      },
    }),
  );
  return new Map(rows.map(({ article, ...r }) => [r.id, { ...r, url: article.canonicalUrl }]));
}
