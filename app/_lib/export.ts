/**
 * Export of a search's results with their provenance (journalists keep a record of what they found,
 * where and when): title, source, URL, publication date and where that date came from, the passage,
 * its evidence sentences, the score breakdown and the stance the verdict model gave it.
 * Pure functions: a response plus article provenance in, rows / CSV / JSON out.
 */
import { stringify } from 'csv-stringify/sync';
import type { QueryKind, SearchResponse, Stance } from '../../ranking/types';

export interface ArticleProvenance {
  publishedAtSource: string;
  fetchedAt: string;
  textSource: string;
  feedUrl: string | null;
}

export interface ExportRow {
  rank: number;
  title: string;
  source: string;
  url: string;
  publishedAt: string | null;
  /** item | meta | jsonld | first_seen | import | unknown: where the publication date came from. */
  publishedAtSource: string | null;
  fetchedAt: string | null;
  /** readability | item_content | item_description | import: where the text came from. */
  textSource: string | null;
  feedUrl: string | null;
  snippet: string;
  evidence: string[];
  score: number;
  bm25: number | null;
  dense: number | null;
  rerank: number | null;
  recency: number;
  /** What the verdict model read in this passage (null when it did not read it). */
  stance: Stance | null;
  stanceConfidence: number | null;
  articleId: number;
  snippetId: number;
}

export interface ExportDocument {
  query: string;
  kind: QueryKind;
  asOf: string;
  halfLifeDays: number | null;
  exportedAt: string;
  /** The page of the search that was exported, and how many passages matched in all. */
  page: number;
  total: number;
  verdict: { label: string; confidence: number; model: string } | null;
  searchUrl: string;
  results: ExportRow[];
}

function stances(r: SearchResponse): Map<number, { stance: Stance; confidence: number }> {
  const out = new Map<number, { stance: Stance; confidence: number }>();
  if (!r.verdict) return out;
  for (const list of [r.verdict.evidence.supports, r.verdict.evidence.refutes, r.verdict.evidence.neutral]) {
    for (const e of list) {
      const prev = out.get(e.snippetId);
      if (!prev || e.confidence > prev.confidence) out.set(e.snippetId, { stance: e.stance, confidence: e.confidence });
    }
  }
  return out;
}

export function exportDocument(
  r: SearchResponse,
  provenance: Map<number, ArticleProvenance>,
  opts: { searchUrl: string; now?: Date },
): ExportDocument {
  const stanceOf = stances(r);
  return {
    query: r.query,
    kind: r.kind,
    asOf: r.asOf,
    halfLifeDays: r.halfLifeDays,
    exportedAt: (opts.now ?? new Date()).toISOString(),
    page: r.page,
    total: r.total,
    verdict: r.verdict ? { label: r.verdict.label, confidence: r.verdict.confidence, model: r.verdict.model } : null,
    searchUrl: opts.searchUrl,
    results: r.results.map((res, i) => {
      const p = provenance.get(res.articleId);
      const s = stanceOf.get(res.snippetId);
      return {
        rank: (r.page - 1) * r.k + i + 1,
        title: res.title,
        source: res.source,
        url: res.url,
        publishedAt: res.publishedAt,
        publishedAtSource: p?.publishedAtSource ?? null,
        fetchedAt: p?.fetchedAt ?? null,
        textSource: p?.textSource ?? null,
        feedUrl: p?.feedUrl ?? null,
        snippet: res.text,
        evidence: res.evidence.map((e) => e.text),
        score: res.score,
        bm25: res.scores.bm25,
        dense: res.scores.dense,
        rerank: res.scores.rerank,
        recency: res.scores.recency,
        stance: s?.stance ?? null,
        stanceConfidence: s?.confidence ?? null,
        articleId: res.articleId,
        snippetId: res.snippetId,
      };
    }),
  };
}

export const CSV_COLUMNS: (keyof ExportRow)[] = [
  'rank',
  'title',
  'source',
  'url',
  'publishedAt',
  'publishedAtSource',
  'fetchedAt',
  'textSource',
  'feedUrl',
  'snippet',
  'evidence',
  'stance',
  'stanceConfidence',
  'score',
  'bm25',
  'dense',
  'rerank',
  'recency',
  'articleId',
  'snippetId',
];

/**
 * A spreadsheet would run a cell that starts with = + - @ (or a tab / carriage return) as a formula:
 * text from crawled pages is untrusted, so such cells get a leading apostrophe (OWASP's advice).
 */
export function neutralizeFormula(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

function cell(v: ExportRow[keyof ExportRow]): string | number {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return neutralizeFormula(v.join(' | '));
  if (typeof v === 'number') return v;
  return neutralizeFormula(String(v));
}

/** RFC 4180 CSV with a header row and a UTF-8 byte-order mark (so spreadsheets read accents right). */
export function toCsv(doc: ExportDocument): string {
  const rows = doc.results.map((r) => CSV_COLUMNS.map((c) => cell(r[c])));
  // Records end in CRLF; a line break inside a field (article text keeps its paragraphs) must be quoted
  // too, which csv-stringify does only for the record delimiter itself unless told.
  return '\ufeff' + stringify([CSV_COLUMNS, ...rows], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
}
