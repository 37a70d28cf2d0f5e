/**
 * The FTS5 MATCH expression, built from word tokens only (pure). Every token becomes a quoted string
 * (FTS5 treats quoted text as literal tokens: AND/OR/NOT/NEAR, `*`, `^`, `:` and parentheses lose
 * their meaning) and tokens are OR-ed, as BM25 in Lucene/Anserini does. Tokens with no letter or
 * digit would only yield empty phrases and are dropped; a list with nothing left is a clear
 * QUERY_UNUSABLE error, never an SQLite exception.
 */
import { createError } from '../../lib/errors';

/** More distinct terms than this adds latency, not recall (queries are capped at 1000 chars upstream). */
export const MAX_MATCH_TERMS = 256;
const MAX_TERM_CHARS = 100;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
const WORDLIKE = /[\p{L}\p{N}]/u;

/** Cleaned, de-duplicated terms in first-seen order. */
export function usableTerms(terms: readonly unknown[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of terms) {
    if (typeof raw !== 'string') continue;
    const t = raw.normalize('NFC').replace(CONTROL, ' ').trim().slice(0, MAX_TERM_CHARS);
    if (!t || !WORDLIKE.test(t)) continue;
    const key = t.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(t);
    if (out.length === MAX_MATCH_TERMS) break;
  }
  return out;
}

export function quoteTerm(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** `"a" OR "b" OR …`; throws QUERY_UNUSABLE when no token is searchable. */
export function buildMatchExpression(terms: readonly unknown[]): string {
  const usable = usableTerms(terms);
  if (usable.length === 0) throw createError('QUERY_UNUSABLE', 'the query has no searchable words');
  return usable.map(quoteTerm).join(' OR ');
}

/** The `rank` function with per-column weights: title weighted, text 1, other columns 0. */
export function rankExpression(titleWeight: number, extraColumns = 0): string {
  if (!Number.isFinite(titleWeight) || titleWeight < 0)
    throw createError('CONFIG_INVALID', `BM25 title weight must be ≥ 0 (got ${titleWeight})`);
  const weights = [titleWeight, 1, ...Array<number>(extraColumns).fill(0)];
  return `bm25(${weights.map((w) => w.toFixed(4)).join(', ')})`;
}
