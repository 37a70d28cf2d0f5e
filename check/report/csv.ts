/**
 * The report as CSV: one row per part of a claim (a claim that is not compound is one row), with the
 * claim's verdict beside the part's, the sentence that decides it, its reason, source, link and date.
 * Cells a spreadsheet would run as formulas are neutralised (text from fetched pages is untrusted);
 * RFC 4180 with a byte-order mark, as the search export writes it. Pure, client-safe.
 */
import { stringify } from 'csv-stringify/sync';
import type { CheckReport } from '../schema';

export const CHECK_CSV_COLUMNS = [
  'claim',
  'sentence',
  'claim_verdict',
  'part',
  'part_text',
  'part_verdict',
  'confidence',
  'reason',
  'deciding_sentence',
  'deciding_reason',
  'source',
  'url',
  'published_at',
] as const;

/** A cell starting with = + - @ (or a tab / carriage return) would run as a formula: it gets an apostrophe (OWASP). */
export function neutralizeFormula(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

const cell = (v: string | number | null | undefined) =>
  v === null || v === undefined ? '' : typeof v === 'number' ? v : neutralizeFormula(v);

export function reportCsv(report: CheckReport): string {
  const rows = report.claims.flatMap((c) =>
    c.results.map((p, i) => {
      const d = p.decidedBy;
      return [
        c.id + 1,
        c.text,
        c.label,
        i + 1,
        p.text,
        p.label,
        Math.round(p.confidence * 1000) / 1000,
        p.reason,
        d?.sentence,
        d?.reason,
        d?.source,
        d?.url,
        d?.publishedAt,
      ].map(cell);
    }),
  );
  return '\ufeff' + stringify([[...CHECK_CSV_COLUMNS], ...rows], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
}
