/**
 * One part of a claim checked as a search is: the same pipeline (retrieval, reranking, the verdict),
 * the coverage "as of" the article's day, the article's own stored copies left out. The verdict's
 * evidence comes back with the sentence that decides it and its reason (the detail that differs or
 * agrees). A search that gives no verdict (no match, keywords, no model) is NOT ENOUGH EVIDENCE with
 * the reason.
 */
import { isQuinError, type QuinError } from '../../lib/errors';
import type { SearchRequest, SearchResponse, StanceEvidence } from '../../ranking/types';
import type { PartResult } from '../schema';

export type RunSearch = (request: SearchRequest) => Promise<SearchResponse>;

export interface PartOptions {
  asOf: string | null;
  exclude: number[];
  maxQueryChars: number;
  /** Candidates the reranker reads per part (at most its own depth). */
  rerankDepth: number;
}

/**
 * The reranker reads this many candidates per part, not its default 30: the reranker is most of a
 * part's time, an article has twenty to thirty parts, and an article's sentence meets its coverage
 * near the top of the hybrid ranking already (docs/checking.md#speed has the measurements).
 */
export const CHECK_RERANK_DEPTH = 15;

/** Results whose sources are shown beside a part's verdict. */
export const SOURCES_SHOWN = 3;

const NO_VERDICT: Record<string, string> = {
  no_match: 'nothing in the coverage matches it',
  keywords: 'it reads as keywords, not a statement',
  question: 'it reads as a question',
  no_model: 'no verdict model is configured',
  disabled: 'verdicts are switched off',
  unavailable: 'the verdict model is not available just now',
};

/** The query for a part: at most the search's length, cut at a word. */
function queryOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return text.slice(0, cut > max / 2 ? cut : max);
}

function decidedBy(res: SearchResponse): StanceEvidence | null {
  const v = res.verdict;
  if (!v) return null;
  if (v.label === 'REFUTED') return v.evidence.refutes[0] ?? null;
  if (v.label === 'SUPPORTED') return v.evidence.supports[0] ?? null;
  if (v.label === 'MIXED') return v.evidence.refutes[0] ?? v.evidence.supports[0] ?? null;
  return null;
}

export function partResult(text: string, res: SearchResponse, ms: number): PartResult {
  const v = res.verdict;
  return {
    text,
    label: v?.label ?? 'NOT_ENOUGH_EVIDENCE',
    status: res.verdictStatus,
    confidence: v?.confidence ?? 0,
    reason: v ? (v.label === 'NOT_ENOUGH_EVIDENCE' ? (v.reason ?? null) : null) : (NO_VERDICT[res.verdictStatus] ?? null),
    decidedBy: decidedBy(res),
    evidence: { supports: v?.evidence.supports ?? [], refutes: v?.evidence.refutes ?? [] },
    sources: res.results.slice(0, SOURCES_SHOWN).map((r) => ({
      title: r.title,
      url: r.url,
      source: r.source,
      publishedAt: r.publishedAt,
      sentence: r.evidence[0]?.text ?? null,
    })),
    ms: Math.round(ms),
  };
}

/** A part whose search failed (the service busy, an index unavailable): not settled, and why. */
function failedPart(text: string, e: QuinError, ms: number): PartResult {
  return {
    text,
    label: 'NOT_ENOUGH_EVIDENCE',
    status: 'error',
    confidence: 0,
    reason: `not checked: ${e.message}`,
    decidedBy: null,
    evidence: { supports: [], refutes: [] },
    sources: [],
    ms: Math.round(ms),
  };
}

export async function checkPart(text: string, run: RunSearch, opts: PartOptions): Promise<PartResult> {
  const t0 = performance.now();
  try {
    const res = await run({
      q: queryOf(text, opts.maxQueryChars),
      k: SOURCES_SHOWN,
      evidenceTop: SOURCES_SHOWN,
      rerankDepth: opts.rerankDepth,
      ...(opts.asOf ? { asOf: opts.asOf } : {}),
      ...(opts.exclude.length ? { exclude: opts.exclude } : {}),
    });
    return partResult(text, res, performance.now() - t0);
  } catch (e) {
    // One part that cannot be searched leaves the others standing; a cancelled check stops.
    if (!isQuinError(e) || e.code === 'CANCELLED') throw e;
    return failedPart(text, e, performance.now() - t0);
  }
}
