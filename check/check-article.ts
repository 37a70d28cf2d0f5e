/**
 * `checkArticle`: an article checked claim by claim, as a stream of events so that a reader sees the
 * first verdicts while the rest are checked (the API sends them as NDJSON, the CLI prints them, the
 * page shows them as they come):
 *
 *   request validated → the article (fetched through the crawler's guarded client, or pasted) →
 *   its claims (claims/extract.ts) → `article` event → each claim's parts checked with the search
 *   pipeline, a few at a time, emitted in reading order → `claim` events → `done` with the summary.
 *
 * A dated article is checked against the coverage as it was on its day (`asOf`), unless the request
 * asks for later coverage too; the article's own stored copies (same URL or canonical URL) are left
 * out of the evidence. Nothing is stored.
 */
import type { ZodError } from 'zod';
import type { HttpClient, ParseThread } from '../crawler';
import type { Config } from '../lib/config';
import type { Db } from '../lib/db/client';
import { createError } from '../lib/errors';
import { zodIssues } from '../lib/web/http';
import { extractClaims, type Claim } from './claims/extract';
import { fetchArticle } from './input/fetch-article';
import { pastedArticle } from './input/pasted-text';
import { inOrder } from './ordered';
import { checkRequestSchema, type Article, type CheckEvent, type CheckParams, type ClaimResult, type CheckSummary } from './schema';
import { CHECK_RERANK_DEPTH, checkPart, type RunSearch } from './verify/check-part';
import { combineLabels, decidingEvidence, outcomeOf } from './verify/combine';

/** Claims checked at once: two overlap one search's database reads with another's model time. */
export const CHECK_CONCURRENCY = 2;

export interface CheckDeps {
  config: Config;
  db: Db;
  /** The search pipeline (the web server passes it through its load-shedding gate). */
  runSearch: RunSearch;
  http?: HttpClient;
  parser?: ParseThread;
  signal?: AbortSignal;
  now?: () => Date;
  concurrency?: number;
  /** Candidates the reranker reads per part (default CHECK_RERANK_DEPTH). */
  rerankDepth?: number;
}

export function parseCheckRequest(raw: unknown): CheckParams {
  const parsed = checkRequestSchema.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issues = zodIssues(parsed.error as ZodError);
  const words = issues.map((i) => (i.path === 'url' || i.path === 'text' || i.path === '(input)' ? i.message : `${i.path}: ${i.message}`));
  throw createError('INVALID_INPUT', [...new Set(words)].join('; '), { param: issues[0]?.path, issues });
}

/** The day the coverage is read "as of": the request's, else the article's publication day unless later coverage is wanted. */
export function asOfFor(req: Pick<CheckParams, 'asOf' | 'includeLater'>, article: Pick<Article, 'publishedAt'>): string | null {
  if (req.asOf) return req.asOf;
  if (req.includeLater || !article.publishedAt) return null;
  // The whole day: other reports of the same day are coverage of the same events.
  return article.publishedAt.slice(0, 10);
}

/** Stored articles under any of the page's addresses: the checked article is no evidence for itself. */
export async function storedCopies(db: Db, urls: readonly string[]): Promise<number[]> {
  if (!urls.length) return [];
  const rows = await db.article.findMany({
    where: { OR: [{ canonicalUrl: { in: [...urls] } }, { originalUrl: { in: [...urls] } }] },
    select: { id: true },
    take: 100,
  });
  return rows.map((r) => r.id);
}

async function checkClaim(claim: Claim, deps: CheckDeps, asOf: string | null, exclude: number[]): Promise<ClaimResult> {
  const t0 = performance.now();
  const opts = { asOf, exclude, maxQueryChars: deps.config.maxQueryChars, rerankDepth: deps.rerankDepth ?? CHECK_RERANK_DEPTH };
  const results = [];
  for (const part of claim.parts) results.push(await checkPart(part, deps.runSearch, opts));
  const label = combineLabels(results.map((r) => r.label));
  return {
    ...claim,
    label,
    outcome: outcomeOf(label),
    results,
    decidedBy: decidingEvidence(label, results),
    ms: Math.round(performance.now() - t0),
  };
}

function summarize(sentences: { skipped: string | null }[], claims: ClaimResult[], seconds: number, first: number | null): CheckSummary {
  const skipped: Record<string, number> = {};
  for (const s of sentences) if (s.skipped) skipped[s.skipped] = (skipped[s.skipped] ?? 0) + 1;
  const count = (o: string) => claims.filter((c) => c.outcome === o).length;
  return {
    claims: claims.length,
    parts: claims.reduce((n, c) => n + c.parts.length, 0),
    supported: count('supported'),
    refuted: count('refuted'),
    notSettled: count('not_settled'),
    sentences: sentences.length,
    skipped,
    seconds: Math.round(seconds * 100) / 100,
    firstVerdictSeconds: first === null ? null : Math.round(first * 100) / 100,
  };
}

async function readArticle(req: CheckParams, deps: CheckDeps) {
  if (req.url) return fetchArticle(req.url, deps.config, deps);
  return { ...pastedArticle(req.text ?? '', req.title, req.publishedAt), urls: [] as string[] };
}

export async function* checkArticle(raw: unknown, deps: CheckDeps): AsyncGenerator<CheckEvent> {
  const t0 = performance.now();
  const req = parseCheckRequest(raw);
  const input = await readArticle(req, deps);
  const { sentences, claims } = extractClaims({ title: input.article.title, text: input.text }, { maxClaims: req.maxClaims });
  const asOf = asOfFor(req, input.article);
  const exclude = await storedCopies(deps.db, input.urls);
  const warnings = input.article.truncated ? [`the page's text is longer than the limit: its first part was checked`] : [];
  if (!claims.length)
    warnings.push('no check-worthy sentence: nothing in this text states a fact with a name, number, date or place to check');
  yield { type: 'article', article: input.article, asOf, excludedArticles: exclude, sentences, claims, warnings };
  const results: ClaimResult[] = [];
  let first: number | null = null;
  const check = (c: Claim) => checkClaim(c, deps, asOf, exclude);
  for await (const result of inOrder(claims, deps.concurrency ?? CHECK_CONCURRENCY, check, deps.signal)) {
    first ??= (performance.now() - t0) / 1000;
    results.push(result);
    yield { type: 'claim', claim: result };
  }
  yield { type: 'done', summary: summarize(sentences, results, (performance.now() - t0) / 1000, first) };
}
