/**
 * A SearchRequest → the parameters the pipeline runs with. Validation is the one request schema's
 * (ranking/schema.ts, with the limits of the ranking options); this adds what needs the clock: dates
 * as instants, maxAgeDays folded into `from`, "as of" as an upper bound on the publication date, the
 * empty range. The query text itself is
 * ranking/query.ts's job. Bad values become a QuinError in plain words that names the parameter, with
 * the machine details (zod's issues) in `details.issues` for the API's `error.issues`.
 */
import type { ZodError } from 'zod';
import { createError, type QuinError } from '../lib/errors';
import type { RankingOptions } from './context';
import { searchRequestSchema, type SearchLimits, type SearchParams, type SearchRequest, type SearchRequestSchema } from './schema';

export interface ResolvedRequest {
  /** The text as given (query analysis cleans it). */
  q: string;
  k: number;
  page: number;
  asOf: Date;
  halfLifeDays: number | null;
  /**
   * Inclusive bounds after folding maxAgeDays into `from` and asOf into `to`: nothing published after
   * the "as of" day (the end of a bare day, else the instant) is searched, and undated text fails the
   * bound like any date bound (it cannot be shown to predate that day).
   */
  from: Date | null;
  to: Date | null;
  /** Source names (trimmed, matched exactly as stored); null = all. */
  sources: Set<string> | null;
  /** Articles left out (the article being checked); null = none. */
  exclude: Set<number> | null;
  sort: 'relevance' | 'newest';
  perArticle: number;
  mode: 'hybrid' | 'bm25' | 'dense';
  rerank: boolean;
  /** Candidates the reranker reads at most (null: its own depth). */
  rerankDepth: number | null;
  verdict: boolean;
  evidenceTop: number;
  coverage: boolean;
  /** What was changed about the request and why, for the response's warnings (a future "as of" date). */
  notes: string[];
}

export interface RequestIssue {
  path: string;
  code: string;
  message: string;
}

const DAY_MS = 86_400_000;

/** Words a reader understands for each parameter (the API's names stay in brackets). */
export const PARAM_LABELS: Record<string, string> = {
  q: 'the query',
  k: 'results per page (k)',
  page: 'the page (page)',
  halfLifeDays: 'the recency half-life (halfLifeDays)',
  asOf: 'the "as of" date (asOf)',
  from: 'the start date (from)',
  to: 'the end date (to)',
  maxAgeDays: 'the maximum age in days (maxAgeDays)',
  sources: 'the sources (sources)',
  exclude: 'the articles left out (exclude)',
  sort: 'the sort order (sort)',
  verdict: 'the verdict switch (verdict)',
  coverage: 'the coverage switch (coverage)',
  perArticle: 'results per article (perArticle)',
  mode: 'the retrieval mode (mode)',
  rerank: 'the reranker switch (rerank)',
  rerankDepth: 'the rerank depth (rerankDepth)',
  evidenceTop: 'results with evidence (evidenceTop)',
  format: 'the export format (format)',
};

const schemas = new Map<string, SearchRequestSchema>();

/** The request schema for these limits (built once per distinct limits). */
export function requestSchemaFor(limits: SearchLimits): SearchRequestSchema {
  const key = `${limits.maxQueryChars}:${limits.maxK}`;
  let s = schemas.get(key);
  if (!s) schemas.set(key, (s = searchRequestSchema(limits)));
  return s;
}

export function limitsOf(opts: Pick<RankingOptions, 'maxQueryChars' | 'maxK'>): SearchLimits {
  return { maxQueryChars: opts.maxQueryChars, maxK: opts.maxK };
}

type ZodIssue = ZodError['issues'][number];

/** One issue in plain words: "results per page (k) must be at most 100". */
function plainIssue(i: ZodIssue): string {
  const raw = i as ZodIssue & {
    maximum?: number | bigint;
    minimum?: number | bigint;
    inclusive?: boolean;
    values?: unknown[];
    expected?: string;
  };
  switch (i.code) {
    case 'too_big':
      return raw.inclusive === false ? `must be less than ${String(raw.maximum)}` : `must be at most ${String(raw.maximum)}`;
    case 'too_small':
      return raw.inclusive === false ? `must be more than ${String(raw.minimum)}` : `must be at least ${String(raw.minimum)}`;
    case 'invalid_value':
      return `must be one of ${(raw.values ?? []).map(String).join(', ')}`;
    case 'invalid_type':
      return raw.expected === 'number' ? 'must be a number' : raw.expected === 'boolean' ? 'must be true or false' : i.message;
    default:
      return i.message;
  }
}

export function requestIssues(err: ZodError): RequestIssue[] {
  return err.issues.map((i) => ({ path: i.path.map(String).join('.') || '(input)', code: i.code, message: i.message }));
}

/** A ZodError of the request schema as the QuinError callers see (QUERY_* for the text, else INVALID_INPUT). */
export function requestError(err: ZodError, limits: SearchLimits, input?: unknown): QuinError {
  const issues = requestIssues(err);
  const first = err.issues[0]!;
  const param = String(first.path[0] ?? '');
  if (param === 'q') {
    const q = (input as { q?: unknown } | undefined)?.q;
    if (first.code === 'too_big') {
      const got = typeof q === 'string' ? q.trim().length : 0;
      return createError(
        'QUERY_TOO_LONG',
        `the query (q) is too long (${got.toLocaleString('en')} characters; at most ${limits.maxQueryChars.toLocaleString('en')})`,
        { param, max: limits.maxQueryChars, got, issues },
      );
    }
    const notText = first.code === 'invalid_type' && q !== undefined && q !== null;
    return createError('QUERY_EMPTY', notText ? 'the query (q) must be text' : 'the query (q) is empty: type a claim or a question', {
      param,
      issues,
    });
  }
  const words = err.issues.map((i) => `${PARAM_LABELS[String(i.path[0] ?? '')] ?? (i.path.join('.') || 'the request')} ${plainIssue(i)}`);
  return createError('INVALID_INPUT', [...new Set(words)].join('; '), { param, issues });
}

/** Validates a request with the schema of these limits; throws the QuinError of requestError. */
export function parseRequest(req: unknown, limits: SearchLimits): SearchParams {
  const parsed = requestSchemaFor(limits).safeParse(req ?? {});
  if (!parsed.success) throw requestError(parsed.error, limits, req);
  return parsed.data;
}

/** A date parameter as an instant: a bare `to` day means the end of that day, any other bare day its start (UTC). */
export function toInstant(value: string | undefined, edge: 'start' | 'end'): Date | null {
  if (!value) return null;
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const d = new Date(bare ? `${value}T00:00:00Z` : value);
  return bare && edge === 'end' ? new Date(d.getTime() + DAY_MS - 1) : d;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** `end`: which parameter set the upper bound (asOf when it is earlier than `to`, or alone). */
function emptyRange(p: SearchParams, from: Date, to: Date, end: 'to' | 'asOf'): QuinError {
  const byAge = p.maxAgeDays !== undefined && (!p.from || toInstant(p.from, 'start')!.getTime() < from.getTime());
  const start = byAge ? `the last ${p.maxAgeDays} days (maxAgeDays) start on ${day(from)}` : `the start date (from) ${day(from)}`;
  const until = end === 'asOf' ? `the "as of" date (asOf) ${day(to)}` : `the end date (to) ${day(to)}`;
  const message = `the date range is empty: ${start}, after ${until}`;
  const issues: RequestIssue[] = [
    { path: byAge ? 'maxAgeDays' : 'from', code: 'empty_range', message: `from ${from.toISOString()} is after ${end} ${to.toISOString()}` },
  ];
  return createError('INVALID_INPUT', message, {
    param: byAge ? 'maxAgeDays' : 'from',
    reason: 'empty_range',
    end,
    from: from.toISOString(),
    to: to.toISOString(),
    maxAgeDays: p.maxAgeDays ?? null,
    issues,
  });
}

/** The upper bound on the publication date: `to`, or the "as of" day when it is earlier (or alone). */
function upperBound(p: SearchParams): { to: Date | null; end: 'to' | 'asOf' } {
  const to = toInstant(p.to, 'end');
  const asOf = toInstant(p.asOf, 'end');
  return asOf && (!to || asOf < to) ? { to: asOf, end: 'asOf' } : { to, end: 'to' };
}

/**
 * A future "as of" date says nothing the present does not: it is dropped (the search runs as of now,
 * with no bound from it) and the response says so. A bare day counts from its start, so today is fine.
 */
function withoutFutureAsOf(p: SearchParams, now: Date): { p: SearchParams; notes: string[] } {
  const asOf = toInstant(p.asOf, 'start');
  if (!asOf || asOf.getTime() <= now.getTime()) return { p, notes: [] };
  const { asOf: _future, ...rest } = p;
  return {
    p: rest as SearchParams,
    notes: [`the "as of" date ${day(asOf)} is in the future: searched as of now (${day(now)})`],
  };
}

export function resolveRequest(req: SearchRequest, opts: RankingOptions, now: Date): ResolvedRequest {
  const { p, notes } = withoutFutureAsOf(parseRequest(req, limitsOf(opts)), now);
  const asOf = toInstant(p.asOf, 'start') ?? now;
  let from = toInstant(p.from, 'start');
  const { to, end } = upperBound(p);
  if (p.maxAgeDays !== undefined) {
    const limit = new Date(asOf.getTime() - p.maxAgeDays * DAY_MS);
    if (!from || limit > from) from = limit;
  }
  if (from && to && from > to) throw emptyRange(p, from, to, end);
  return {
    q: p.q,
    k: p.k,
    page: p.page,
    asOf,
    halfLifeDays: p.halfLifeDays === undefined ? opts.halfLifeDays : p.halfLifeDays === 'off' ? null : p.halfLifeDays,
    from,
    to,
    sources: p.sources?.length ? new Set(p.sources) : null,
    exclude: p.exclude?.length ? new Set(p.exclude) : null,
    sort: p.sort,
    perArticle: p.perArticle ?? opts.perArticle,
    mode: p.mode ?? 'hybrid',
    rerank: p.rerank !== false,
    rerankDepth: p.rerankDepth ?? null,
    verdict: p.verdict !== false,
    evidenceTop: p.evidenceTop ?? p.k,
    coverage: p.coverage === true,
    notes,
  };
}
