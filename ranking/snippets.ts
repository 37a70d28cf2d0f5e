/**
 * Snippet rows for the pipeline. Two reads per query: light metadata for every candidate (filters,
 * de-duplication, decay), then full rows only for what is shown, reranked or judged. Ids the database
 * no longer has (an index a little behind a deletion) are simply absent from the maps.
 *
 * The candidate read is on the latency path (~1,000 ids per hybrid query), so it is one raw SQL
 * statement with the id list as a single parameter (JSON for SQLite, an array for PostgreSQL): about
 * three times faster than the generated client's `findMany({ id: { in } })` on 1,000 ids; on SQLite
 * it is run by the client's direct reader (lib/db/client.ts `sqliteReader`), not through Prisma's
 * adapter. Without a known provider it falls back to the generated client.
 */
import { sqliteReader, type Db } from '../lib/db/client';
import { prepared } from '../lib/db/prepared';

export type DbProvider = 'sqlite' | 'postgres';

export interface SnippetMeta {
  id: number;
  articleId: number;
  source: string;
  publishedAt: Date | null;
  /** When the snippet entered the archive (a lower bound on the age of undated text). */
  createdAt: Date;
}

/** What the relevance floor and the de-duplication read of every candidate. */
export interface SnippetText {
  id: number;
  title: string;
  text: string;
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

// Well under SQLite's and PostgreSQL's limits (and json_each takes any length).
const CHUNK = 5000;

async function chunked<T>(ids: readonly number[], read: (part: number[]) => Promise<T[]>): Promise<T[]> {
  const unique = [...new Set(ids)].filter(Number.isSafeInteger);
  const out: T[] = [];
  for (let i = 0; i < unique.length; i += CHUNK) out.push(...(await read(unique.slice(i, i + CHUNK))));
  return out;
}

function toDate(v: unknown): Date | null {
  if (v === null || v === undefined) return null;
  const d = v instanceof Date ? v : new Date(v as string | number);
  return Number.isFinite(d.getTime()) ? d : null;
}

const META_COLUMNS = `s.id AS "id", s.article_id AS "articleId", s.source AS "source", s.published_at AS "publishedAt", s.created_at AS "createdAt"`;
const TEXT_COLUMNS = `s.id AS "id", s.title AS "title", s.text AS "text"`;
const ROW_COLUMNS = `${META_COLUMNS}, s.position AS "position", s.sentence_start AS "sentenceStart", s.sentence_end AS "sentenceEnd", s.text AS "text", s.sentence_spans AS "sentenceSpans", s.title AS "title", a.canonical_url AS "url"`;

function rawQuery<T>(db: Db, provider: DbProvider, columns: string, join: string, part: number[]): Promise<T[]> {
  const where = provider === 'sqlite' ? `s.id IN (SELECT value FROM json_each(?))` : `s.id = ANY($1::int[])`;
  const param = provider === 'sqlite' ? JSON.stringify(part) : part;
  const sql = `SELECT ${columns} FROM snippets s${join} WHERE ${where}`;
  const reader = provider === 'sqlite' ? sqliteReader(db) : null;
  if (reader) return Promise.resolve(prepared(reader, sql).all(param) as T[]);
  return db.$queryRawUnsafe<T[]>(sql, param);
}

function normalise<T extends SnippetMeta>(r: T & { publishedAt: unknown; createdAt: unknown; id: unknown; articleId: unknown }): T {
  return {
    ...r,
    id: Number(r.id),
    articleId: Number(r.articleId),
    publishedAt: toDate(r.publishedAt),
    createdAt: toDate(r.createdAt) ?? new Date(0),
  };
}

export async function loadMeta(db: Db, ids: readonly number[], provider?: DbProvider): Promise<Map<number, SnippetMeta>> {
  const rows = await chunked(ids, (part) =>
    provider
      ? rawQuery<SnippetMeta>(db, provider, META_COLUMNS, '', part).then((rs) => rs.map(normalise))
      : db.snippet.findMany({
          where: { id: { in: part } },
          select: { id: true, articleId: true, source: true, publishedAt: true, createdAt: true },
        }),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Metadata and text of every candidate in one read: the filters, the relevance floor and the
 * de-duplication all need them, and one statement over the ids costs about what each of two did.
 */
export async function loadMetaAndTexts(
  db: Db,
  ids: readonly number[],
  provider?: DbProvider,
): Promise<{ meta: Map<number, SnippetMeta>; texts: Map<number, SnippetText> }> {
  if (!provider) {
    const [meta, texts] = [await loadMeta(db, ids), await loadTexts(db, ids)];
    return { meta, texts };
  }
  const rows = await chunked(ids, (part) =>
    rawQuery<SnippetMeta & SnippetText>(db, provider, `${META_COLUMNS}, s.title AS "title", s.text AS "text"`, '', part),
  );
  const meta = new Map<number, SnippetMeta>();
  const texts = new Map<number, SnippetText>();
  for (const r of rows) {
    const { title, text, ...m } = normalise(r);
    meta.set(m.id, m);
    texts.set(m.id, { id: m.id, title, text });
  }
  return { meta, texts };
}

export async function loadTexts(db: Db, ids: readonly number[], provider?: DbProvider): Promise<Map<number, SnippetText>> {
  const rows = await chunked(ids, (part) =>
    provider
      ? rawQuery<SnippetText>(db, provider, TEXT_COLUMNS, '', part).then((rs) => rs.map((r) => ({ ...r, id: Number(r.id) })))
      : db.snippet.findMany({ where: { id: { in: part } }, select: { id: true, title: true, text: true } }),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export async function loadRows(db: Db, ids: readonly number[], provider?: DbProvider): Promise<Map<number, SnippetRow>> {
  const rows = await chunked(ids, async (part) => {
    if (provider) {
      const rs = await rawQuery<SnippetRow>(db, provider, ROW_COLUMNS, ' JOIN articles a ON a.id = s.article_id', part);
      return rs.map((r) => ({
        ...normalise(r),
        position: Number(r.position),
        sentenceStart: Number(r.sentenceStart),
        sentenceEnd: Number(r.sentenceEnd),
      }));
    }
    const rs = await db.snippet.findMany({
      where: { id: { in: part } },
      select: {
        id: true,
        articleId: true,
        source: true,
        publishedAt: true,
        createdAt: true,
        position: true,
        sentenceStart: true,
        sentenceEnd: true,
        text: true,
        sentenceSpans: true,
        title: true,
        article: { select: { canonicalUrl: true } },
      },
    });
    return rs.map(({ article, ...r }) => ({ ...r, url: article.canonicalUrl }));
  });
  return new Map(rows.map((r) => [r.id, r]));
}
