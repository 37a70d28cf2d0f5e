/**
 * The report a check adds up to: its events folded into one document (the JSON export, `quin check
 * --json`, `POST /api/check?format=json`), and the link that runs the same check again. Pure,
 * client-safe: the page builds its exports from the events it has shown.
 */
import type { CheckEvent, CheckReport, CheckStart, ClaimResult, CheckSummary } from '../schema';

export interface ReportRequest {
  url: string | null;
  includeLater: boolean;
  asOf: string | null;
}

/** The report so far: null until the article event; `summary` null until the check is done. */
export function foldEvents(events: readonly CheckEvent[]): {
  start: CheckStart | null;
  claims: ClaimResult[];
  summary: CheckSummary | null;
} {
  let start: CheckStart | null = null;
  const claims: ClaimResult[] = [];
  let summary: CheckSummary | null = null;
  for (const e of events) {
    if (e.type === 'article') start = e;
    else if (e.type === 'claim') claims.push(e.claim);
    else if (e.type === 'done') summary = e.summary;
  }
  return { start, claims, summary };
}

export function buildReport(events: readonly CheckEvent[], request: ReportRequest, checkedAt: Date): CheckReport | null {
  const { start, claims, summary } = foldEvents(events);
  if (!start || !summary) return null;
  const { type: _type, claims: _claims, ...article } = start;
  return { ...article, checkedAt: checkedAt.toISOString(), request, claims, summary };
}

/** The page's address for the same check: a URL check by its URL; pasted text travels in the fragment (never sent to a server). */
export function rerunHref(request: ReportRequest, text?: string, title?: string | null): string {
  const q = new URLSearchParams();
  if (request.url) q.set('url', request.url);
  if (request.includeLater) q.set('includeLater', 'true');
  if (request.asOf) q.set('asOf', request.asOf);
  const query = q.toString();
  if (request.url || text === undefined) return `/check${query ? `?${query}` : ''}`;
  const fragment = new URLSearchParams({ text, ...(title ? { title } : {}) }).toString();
  return `/check${query ? `?${query}` : ''}#${fragment}`;
}
