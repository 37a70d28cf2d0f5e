/**
 * Writes articles with their snippets. An article and its snippets are written in one transaction,
 * so a crash or kill never leaves one without the other. Re-storing an article whose content hash is
 * unchanged does nothing; a changed article has its snippets replaced (new snippet ids, which the
 * indexer sees as removals plus additions).
 */
import crypto from 'node:crypto';
import { isSqliteDb, type Db } from '../../lib/db/client';
import { createError } from '../../lib/errors';
import { saveClaimReviews, type ClaimReviewData } from './claim-reviews';
import { isBusyError, isUniqueViolation, writeTransaction, type Tx } from '../../lib/db/retry';
import { makeSnippets, type WindowOptions } from '../text/snippets';
import { splitSentences } from '../text/sentences';
import { storable } from '../text/storable';

export type PublishedAtSource = 'item' | 'meta' | 'jsonld' | 'first_seen' | 'import' | 'unknown';
export type TextSource = 'readability' | 'item_content' | 'item_description' | 'import';

export interface ArticleInput {
  canonicalUrl: string;
  originalUrl: string;
  feedId?: number | null;
  externalId?: string | null;
  title: string;
  author?: string | null;
  source: string;
  language?: string | null;
  publishedAt: Date | null;
  publishedAtSource: PublishedAtSource;
  fetchedAt: Date;
  textSource: TextSource;
  extractionStatus: 'ok' | 'fallback';
  /** Either the full text (split here) or sentences already split (e.g. SciFact). */
  text?: string;
  sentences?: string[];
  /** Published fact-checks found on the page (stored with the article). */
  claimReviews?: ClaimReviewData[];
}

export type StoreOutcome = 'created' | 'updated' | 'unchanged' | 'empty';

export interface StoreResult {
  outcome: StoreOutcome;
  articleId: number | null;
  snippets: number;
}

export function contentHash(title: string, text: string): string {
  return crypto.createHash('sha256').update(title).update('\n').update(text).digest('hex');
}

/** What the batch knows of a stored article: it is new, unchanged or changed by its content hash. */
type StoredArticle = { id: number; canonicalUrl: string; contentHash: string };

interface Prepared {
  input: ArticleInput;
  text: string;
  sentences: string[];
  hash: string;
  snippets: ReturnType<typeof makeSnippets>;
}

function prepare(raw: ArticleInput, window: WindowOptions): Prepared {
  // The text boundary: whatever the source (a feed, a page, an imported corpus), nothing unstorable gets in.
  const input = storable(raw);
  const sentences = input.sentences
    ? input.sentences.map((s) => s.replace(/\s+/g, ' ').trim()).filter(Boolean)
    : splitSentences(input.text ?? '');
  const text = input.sentences ? sentences.join(' ') : (input.text ?? '').trim();
  const title = input.title.replace(/\s+/g, ' ').trim();
  return { input: { ...input, title }, text, sentences, hash: contentHash(title, text), snippets: makeSnippets(sentences, window) };
}

function articleData(p: Prepared) {
  const i = p.input;
  return {
    canonicalUrl: i.canonicalUrl,
    originalUrl: i.originalUrl,
    feedId: i.feedId ?? null,
    externalId: i.externalId ?? null,
    title: i.title,
    author: i.author ?? null,
    source: i.source,
    language: i.language ?? null,
    publishedAt: i.publishedAt,
    publishedAtSource: i.publishedAtSource,
    fetchedAt: i.fetchedAt,
    contentHash: p.hash,
    textSource: i.textSource,
    extractionStatus: i.extractionStatus,
    text: p.text,
    sentenceCount: p.sentences.length,
  };
}

function snippetRows(p: Prepared, articleId: number) {
  return p.snippets.map((s) => ({
    articleId,
    position: s.position,
    sentenceStart: s.sentenceStart,
    sentenceEnd: s.sentenceEnd,
    text: s.text,
    sentenceSpans: JSON.stringify(s.sentenceSpans),
    title: p.input.title,
    source: p.input.source,
    publishedAt: p.input.publishedAt,
  }));
}

export type { Tx };

export interface StoreOptions {
  /** Runs inside the transaction after each article (e.g. the crawler marks its feed item done). */
  afterEach?: (tx: Tx, result: StoreResult, input: ArticleInput) => Promise<void>;
}

async function storeBatch(db: Db, prepared: Prepared[], opts: StoreOptions): Promise<StoreResult[]> {
  return writeTransaction(
    db,
    async (tx) => {
      const urls = [...new Set(prepared.map((p) => p.input.canonicalUrl))];
      const existing = await tx.article.findMany({
        where: { canonicalUrl: { in: urls } },
        select: { id: true, canonicalUrl: true, contentHash: true },
      });
      const byUrl = new Map(existing.map((a) => [a.canonicalUrl, a]));
      const sqlite = isSqliteDb(db);
      const created = await createNew(tx, sqlite, prepared, byUrl);
      const results: StoreResult[] = [];
      for (const p of prepared) {
        const id = created.get(p);
        const result = id === undefined ? await storeOne(tx, sqlite, p, byUrl) : await storedNew(tx, p, id);
        if (opts.afterEach) await opts.afterEach(tx, result, p.input);
        results.push(result);
      }
      return results;
    },
    { timeout: 120_000, retryOn: (e) => isBusyError(e) || isUniqueViolation(e) },
  );
}

/** Article rows a statement: 16 parameters a row, within SQLite's 32,766. */
const ARTICLES_PER_INSERT = 1_000;

/** Snippet rows a statement (one JSON parameter: a few MB). */
const SNIPPET_ROWS_PER_INSERT = 3_000;

/** A DateTime as Prisma writes it to SQLite (text, UTC, "+00:00"), so that stored values compare alike. */
const sqliteTime = (d: Date) => d.toISOString().replace(/Z$/, '+00:00');

const SNIPPET_COLUMNS = `article_id, position, sentence_start, sentence_end, text, sentence_spans, title, source, published_at, created_at`;
const SQLITE_INSERT_SNIPPETS = `INSERT INTO snippets (${SNIPPET_COLUMNS}) SELECT ${[...Array(10).keys()].map((i) => `json_extract(value, '$[${i}]')`).join(', ')} FROM json_each(?)`;
const PG_INSERT_SNIPPETS = `INSERT INTO snippets (${SNIPPET_COLUMNS}) SELECT * FROM json_to_recordset($1::json) AS t(a int, p int, ss int, se int, tx text, sp text, ti text, so text, pa timestamp(3), ca timestamp(3))`;

/**
 * Snippet rows in one statement per SNIPPET_ROWS_PER_INSERT, the rows as one JSON parameter: every
 * snippet the store writes goes this way. Through
 * createMany, the Prisma client's own work on each row's values (checking, placeholders, the query
 * compiler) took three quarters of a bulk import's time; the database's, the FTS5 triggers
 * included, a tenth.
 */
async function insertSnippets(tx: Tx, sqlite: boolean, rows: readonly ReturnType<typeof snippetRows>[number][]): Promise<void> {
  const now = new Date();
  for (let i = 0; i < rows.length; i += SNIPPET_ROWS_PER_INSERT) {
    const part = rows.slice(i, i + SNIPPET_ROWS_PER_INSERT);
    if (sqlite) {
      const values = part.map((r) => [
        r.articleId,
        r.position,
        r.sentenceStart,
        r.sentenceEnd,
        r.text,
        r.sentenceSpans,
        r.title,
        r.source,
        r.publishedAt ? sqliteTime(r.publishedAt) : null,
        sqliteTime(now),
      ]);
      await tx.$executeRawUnsafe(SQLITE_INSERT_SNIPPETS, JSON.stringify(values));
    } else {
      const values = part.map((r) => ({
        a: r.articleId,
        p: r.position,
        ss: r.sentenceStart,
        se: r.sentenceEnd,
        tx: r.text,
        sp: r.sentenceSpans,
        ti: r.title,
        so: r.source,
        pa: r.publishedAt?.toISOString() ?? null,
        ca: now.toISOString(),
      }));
      await tx.$executeRawUnsafe(PG_INSERT_SNIPPETS, JSON.stringify(values));
    }
  }
}

/**
 * The batch's new articles — the first one with snippets of each URL not stored yet — written
 * together: one statement per ARTICLES_PER_INSERT articles and one per SNIPPET_ROWS_PER_INSERT
 * snippets, where one article at a time took two statements each (a bulk import of 70,000 articles
 * made 140,000). Returns each one's new id and records it in `byUrl`, so that a later copy of the
 * same URL in the batch is stored by storeOne as unchanged or updated, as it was before.
 */
async function createNew(
  tx: Tx,
  sqlite: boolean,
  prepared: readonly Prepared[],
  byUrl: Map<string, StoredArticle>,
): Promise<Map<Prepared, number>> {
  const firsts = new Set<string>();
  const fresh = prepared.filter((p) => {
    const url = p.input.canonicalUrl;
    if (p.snippets.length === 0 || byUrl.has(url) || firsts.has(url)) return false;
    firsts.add(url);
    return true;
  });
  const out = new Map<Prepared, number>();
  if (fresh.length === 0) return out;
  const idOf = new Map<string, number>();
  for (let i = 0; i < fresh.length; i += ARTICLES_PER_INSERT) {
    const part = fresh.slice(i, i + ARTICLES_PER_INSERT).map(articleData);
    for (const r of await tx.article.createManyAndReturn({ data: part, select: { id: true, canonicalUrl: true } }))
      idOf.set(r.canonicalUrl, r.id);
  }
  const snippets = fresh.flatMap((p) => {
    const id = idOf.get(p.input.canonicalUrl)!;
    out.set(p, id);
    byUrl.set(p.input.canonicalUrl, { id, canonicalUrl: p.input.canonicalUrl, contentHash: p.hash });
    return snippetRows(p, id);
  });
  await insertSnippets(tx, sqlite, snippets);
  return out;
}

/** The rest of storing an article createNew wrote. */
async function storedNew(tx: Tx, p: Prepared, id: number): Promise<StoreResult> {
  await saveClaimReviews(tx, id, p.input.claimReviews);
  return { outcome: 'created', articleId: id, snippets: p.snippets.length };
}

async function storeOne(tx: Tx, sqlite: boolean, p: Prepared, byUrl: Map<string, StoredArticle>): Promise<StoreResult> {
  const prior = byUrl.get(p.input.canonicalUrl);
  if (p.snippets.length === 0) return { outcome: 'empty', articleId: prior?.id ?? null, snippets: 0 };
  // createNew wrote every new article with snippets; reaching here without one is a bug in this file.
  if (!prior) throw createError('INTERNAL', `store: ${p.input.canonicalUrl} was not written with its batch`);
  if (prior.contentHash === p.hash) {
    await saveClaimReviews(tx, prior.id, p.input.claimReviews);
    return { outcome: 'unchanged', articleId: prior.id, snippets: 0 };
  }
  const { canonicalUrl: _u, fetchedAt: _f, ...changes } = articleData(p);
  await tx.article.update({ where: { id: prior.id }, data: { ...changes, fetchedAt: p.input.fetchedAt } });
  await tx.snippet.deleteMany({ where: { articleId: prior.id } });
  await insertSnippets(tx, sqlite, snippetRows(p, prior.id));
  byUrl.set(p.input.canonicalUrl, { ...prior, contentHash: p.hash });
  await saveClaimReviews(tx, prior.id, p.input.claimReviews);
  return { outcome: 'updated', articleId: prior.id, snippets: p.snippets.length };
}

/**
 * Stores a batch of articles in one transaction (one transaction per batch keeps bulk imports fast;
 * the batch is still all-or-nothing). Results are in input order. Articles that yield no snippet are
 * not stored (`empty`): an article without snippets cannot be found. When another process inserts
 * the same canonical URL at the same moment (unique violation) or holds the SQLite write lock, the
 * whole batch is retried: the retry sees the other's row and treats it as a duplicate.
 */
export async function storeArticles(
  db: Db,
  inputs: ArticleInput[],
  window: WindowOptions,
  opts: StoreOptions = {},
): Promise<StoreResult[]> {
  const prepared = inputs.map((i) => prepare(i, window));
  return storeBatch(db, prepared, opts);
}

export async function storeArticle(db: Db, input: ArticleInput, window: WindowOptions, opts: StoreOptions = {}): Promise<StoreResult> {
  const [result] = await storeArticles(db, [input], window, opts);
  return result!;
}

/** Deletes an article; its snippets go with it (ON DELETE CASCADE), in the same statement. */
export async function deleteArticle(db: Db, articleId: number): Promise<boolean> {
  const { count } = await db.article.deleteMany({ where: { id: articleId } });
  return count > 0;
}
