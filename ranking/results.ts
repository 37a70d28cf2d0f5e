/**
 * Stage "evidence": full rows for what is shown, reranked or judged (read once per search), the best
 * evidence sentences of each, and the SearchResult records with their score breakdown.
 */
import { sentencesAtSpans } from '../lib/text/sentences';
import type { SearchContext } from './context';
import type { Candidate } from './candidates';
import { pickEvidence } from './evidence';
import { guard } from './run';
import { loadRows, type SnippetRow } from './snippets';
import type { Duplicate, QueryAnalysis, ScoreBreakdown, SearchResult } from './types';

/** Full snippet rows, read on demand and kept for the rest of the search. */
export class RowCache {
  private readonly rows = new Map<number, SnippetRow>();
  constructor(private readonly ctx: SearchContext) {}

  async need(ids: readonly number[]): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.rows.has(id));
    if (!missing.length) return;
    const got = await guard('DB_UNAVAILABLE', 'reading snippets', () => loadRows(this.ctx.db, missing, this.ctx.provider));
    for (const [id, row] of got) this.rows.set(id, row);
  }

  get(id: number): SnippetRow | undefined {
    return this.rows.get(id);
  }
}

export function breakdown(c: Candidate): ScoreBreakdown {
  return {
    bm25: c.bm25,
    bm25Rank: c.bm25Rank,
    dense: c.dense,
    denseRank: c.denseRank,
    fused: c.fused,
    rerank: c.rerank,
    relevance: c.relevance,
    recency: c.recency.factor,
    recencyBasis: c.recency.basis,
    assumedAgeDays: c.recency.assumedAgeDays,
    final: c.final,
  };
}

function duplicate(c: Candidate, rows: RowCache): Duplicate | null {
  const row = rows.get(c.snippetId);
  if (!row) return null;
  return {
    snippetId: c.snippetId,
    articleId: c.articleId,
    title: row.title,
    url: row.url,
    source: row.source,
    publishedAt: row.publishedAt?.toISOString() ?? null,
  };
}

export interface EvidenceInput {
  /** The page's candidates, and those that get evidence sentences (the page's first `evidenceTop`, the verdict's pool). */
  shown: readonly Candidate[];
  withEvidence: readonly Candidate[];
  /** The verdict's pool and how many evidence sentences per result it reads (more than a page shows, maybe). */
  verdict?: { pool: ReadonlySet<number>; sentences: number };
  query: QueryAnalysis;
  queryVector: Float32Array | null;
}

/** SearchResults for `shown` (same order; a candidate whose row has gone is left out). */
export async function toResults(input: EvidenceInput, rows: RowCache, ctx: SearchContext): Promise<Map<number, SearchResult>> {
  const all = [...input.shown, ...input.withEvidence];
  await rows.need([...all.map((c) => c.snippetId), ...all.flatMap((c) => c.duplicates.map((d) => d.snippetId))]);
  const sentences = new Map(
    input.withEvidence.flatMap((c) =>
      rows.get(c.snippetId)
        ? [[c.snippetId, sentencesAtSpans(rows.get(c.snippetId)!.text, rows.get(c.snippetId)!.sentenceSpans)] as const]
        : [],
    ),
  );
  // The indexer caches vectors under the trimmed sentence text.
  const flat = [...new Set([...sentences.values()].flatMap((ss) => ss.map((s) => s.text.trim())))];
  const vectors = flat.length ? await guard('INDEX_UNAVAILABLE', 'sentence vectors', () => ctx.indexes.sentenceVectors.get(flat)) : [];
  const vecOf = new Map(flat.map((t, i) => [t, vectors[i] ?? null]));
  const out = new Map<number, SearchResult>();
  for (const c of all) {
    const row = rows.get(c.snippetId);
    if (!row || out.has(c.snippetId)) continue;
    const ss = sentences.get(c.snippetId);
    const n = input.verdict?.pool.has(c.snippetId)
      ? Math.max(ctx.options.evidenceSentences, input.verdict.sentences)
      : ctx.options.evidenceSentences;
    const evidence = ss
      ? pickEvidence(
          ss,
          ss.map((s) => vecOf.get(s.text.trim()) ?? null),
          input.queryVector,
          input.query.terms,
          n,
        )
      : [];
    out.set(c.snippetId, {
      snippetId: c.snippetId,
      articleId: c.articleId,
      position: row.position,
      sentenceStart: row.sentenceStart,
      sentenceEnd: row.sentenceEnd,
      title: row.title,
      url: row.url,
      source: row.source,
      publishedAt: row.publishedAt ? row.publishedAt.toISOString() : null,
      text: row.text,
      evidence,
      score: c.final,
      scores: breakdown(c),
      duplicates: c.duplicates.map((d) => duplicate(d, rows)).filter((d): d is Duplicate => d !== null),
    });
  }
  return out;
}
