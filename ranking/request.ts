/**
 * Validation of a SearchRequest's parameters (the query text itself is ranking/query.ts's job), pure.
 * Bad values give INVALID_INPUT errors that name the parameter; nothing reaches an index unchecked.
 */
import { createError } from '../lib/errors';
import type { RankingOptions } from './context';
import { resolveHalfLife } from './decay';
import type { SearchRequest } from './types';

export interface ResolvedRequest {
  k: number;
  page: number;
  asOf: Date;
  halfLifeDays: number | null;
  /** Inclusive bounds after folding maxAgeDays into `from`. */
  from: Date | null;
  to: Date | null;
  /** Source names (trimmed, matched exactly as stored); null = all. */
  sources: Set<string> | null;
  sort: 'relevance' | 'newest';
  perArticle: number;
  mode: 'hybrid' | 'bm25' | 'dense';
  rerank: boolean;
  verdict: boolean;
  evidenceTop: number;
  coverage: boolean;
}

const DAY_MS = 86_400_000;
/** Deepest result a request may page to (page · k). */
export const MAX_DEPTH = 5000;

function bad(param: string, why: string): never {
  throw createError('INVALID_INPUT', `${param}: ${why}`, { param });
}

function toDate(v: unknown, param: string): Date | null {
  if (v === undefined || v === null || v === '') return null;
  const d = v instanceof Date ? v : typeof v === 'string' || typeof v === 'number' ? new Date(v) : null;
  if (!d || !Number.isFinite(d.getTime())) bad(param, `not a valid date (${JSON.stringify(v)})`);
  return d;
}

function intIn(v: unknown, param: string, min: number, max: number, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) bad(param, `must be an integer from ${min} to ${max} (got ${JSON.stringify(v)})`);
  return n;
}

function oneOf<T extends string>(v: unknown, param: string, allowed: readonly T[], fallback: T): T {
  if (v === undefined || v === null) return fallback;
  if (!allowed.includes(v as T)) bad(param, `must be one of ${allowed.join(', ')} (got ${JSON.stringify(v)})`);
  return v as T;
}

export function resolveRequest(req: SearchRequest, opts: RankingOptions, now: Date): ResolvedRequest {
  const k = intIn(req.k, 'k', 1, opts.maxK, 10);
  const page = intIn(req.page, 'page', 1, Math.max(1, Math.floor(MAX_DEPTH / k)), 1);
  const asOf = toDate(req.asOf, 'asOf') ?? now;

  let halfLifeDays: number | null;
  const h = req.halfLifeDays;
  if (h === undefined || h === null || h === Infinity) halfLifeDays = resolveHalfLife(h, opts.halfLifeDays);
  else if (typeof h !== 'number' || !(h > 0)) bad('halfLifeDays', `must be a positive number of days, or Infinity/null for no decay (got ${JSON.stringify(h)})`);
  else halfLifeDays = h;

  let from = toDate(req.from, 'from');
  const to = toDate(req.to, 'to');
  if (req.maxAgeDays !== undefined && req.maxAgeDays !== null) {
    if (typeof req.maxAgeDays !== 'number' || !(req.maxAgeDays >= 0) || !Number.isFinite(req.maxAgeDays)) {
      bad('maxAgeDays', `must be a non-negative number of days (got ${JSON.stringify(req.maxAgeDays)})`);
    }
    const limit = new Date(asOf.getTime() - req.maxAgeDays * DAY_MS);
    if (!from || limit > from) from = limit;
  }
  if (from && to && from > to) bad('from', `the date range is empty (from ${from.toISOString()} is after to ${to.toISOString()})`);

  let sources: Set<string> | null = null;
  if (req.sources !== undefined && req.sources !== null) {
    if (!Array.isArray(req.sources) || req.sources.some((s) => typeof s !== 'string')) bad('sources', 'must be a list of source names');
    const names = req.sources.map((s) => s.trim()).filter(Boolean);
    if (names.length) sources = new Set(names);
  }

  return {
    k,
    page,
    asOf,
    halfLifeDays,
    from,
    to,
    sources,
    sort: oneOf(req.sort, 'sort', ['relevance', 'newest'] as const, 'relevance'),
    perArticle: intIn(req.perArticle, 'perArticle', 0, 1000, opts.perArticle),
    mode: oneOf(req.mode, 'mode', ['hybrid', 'bm25', 'dense'] as const, 'hybrid'),
    rerank: req.rerank !== false,
    verdict: req.verdict !== false,
    evidenceTop: intIn(req.evidenceTop, 'evidenceTop', 0, opts.maxK, k),
    coverage: req.coverage === true,
  };
}
