/**
 * The search pipeline, one entry point for the CLI, the JSON API and the web pages:
 *
 *   analyse → retrieve (BM25 ‖ dense, top K each) → fuse → load + filter → [rerank top N] →
 *   time decay → sort → de-duplicate per article → page → evidence sentences → [verdict]
 *
 * Every failure reaches the caller as a QuinError: QUERY_* for the text, INVALID_INPUT for the
 * parameters, INDEX_UNAVAILABLE / MODEL_UNAVAILABLE when an index or a stage fails underneath.
 */
import { createError, isQuinError, type ErrorCode } from '../lib/errors';
import type { Hit, IndexFilter } from '../indexer/types';
import type { SearchContext } from './context';
import { weeklyCoverage } from './coverage';
import { decayed, recencyFactor } from './decay';
import { pickEvidence, snippetSentences } from './evidence';
import { fuseRrf, fuseScores, singleRun, type FusedCandidate } from './fusion';
import { analyzeQuery } from './query';
import { embedQuery } from './query-vectors';
import { resolveRequest, type ResolvedRequest } from './request';
import { hasFilter, limitPerArticle, pageOf, passesFilter, sortRanked } from './select';
import { loadMeta, loadRows, type SnippetMeta, type SnippetRow } from './snippets';
import type { RerankCandidate, StageContext } from './stages';
import type { QueryAnalysis, SearchRequest, SearchResponse, SearchResult } from './types';

/** Score fusion normalisation (chosen on the development split, docs/evaluation.md). */
export const SCORE_NORMALIZATION = 'minmax' as const;
/** With filters on, the dense run (which cannot filter inside FAISS) is fetched this much deeper. */
const DENSE_FILTER_OVERFETCH = 4;

interface Ranked extends FusedCandidate, SnippetMeta {
  relevance: number;
  rerank: number | null;
  recency: number;
  final: number;
  tier: number;
}

class Timer {
  readonly ms: Record<string, number> = {};
  private readonly start = performance.now();
  async time<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      this.ms[name] = round((this.ms[name] ?? 0) + performance.now() - t);
    }
  }
  total(): number {
    return round(performance.now() - this.start);
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Runs `fn`, turning anything that is not already a QuinError into `code` (never a raw SQLite/FAISS error). */
async function guard<T>(code: ErrorCode, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isQuinError(err)) throw err;
    throw createError(code, `${what} failed: ${err instanceof Error ? err.message : String(err)}`, undefined, err);
  }
}

/** The filters BM25 applies inside its index; the dense run is filtered after retrieval. */
function indexFilter(r: ResolvedRequest): IndexFilter | undefined {
  const f: IndexFilter = {};
  if (r.from) f.from = r.from;
  if (r.to) f.to = r.to;
  if (r.sources) f.sources = [...r.sources];
  return Object.keys(f).length ? f : undefined;
}

function fuse(mode: ResolvedRequest['mode'], bm25: Hit[], dense: Hit[], ctx: SearchContext): FusedCandidate[] {
  if (mode === 'bm25') return singleRun(bm25, 'bm25');
  if (mode === 'dense') return singleRun(dense, 'dense');
  const w = { bm25Weight: ctx.options.bm25Weight };
  return ctx.options.fusion === 'rrf' ? fuseRrf(bm25, dense, ctx.options.rrfK, w) : fuseScores(bm25, dense, w, SCORE_NORMALIZATION);
}

function rerankCandidate(c: Ranked, row: SnippetRow): RerankCandidate {
  return {
    snippetId: c.snippetId,
    articleId: c.articleId,
    title: row.title,
    text: row.text,
    sentences: snippetSentences(row.text, row.sentenceSpans).map((s) => s.text),
    publishedAt: c.publishedAt,
    source: c.source,
    bm25: c.bm25,
    dense: c.dense,
    bm25Rank: c.bm25Rank,
    denseRank: c.denseRank,
    fused: c.fused,
  };
}

export async function search(request: SearchRequest, ctx: SearchContext): Promise<SearchResponse> {
  const timer = new Timer();
  const { indexes, db, options } = ctx;
  const query: QueryAnalysis = await timer.time('analyze', () => analyzeQuery(request?.q, { maxChars: options.maxQueryChars }));
  const r = resolveRequest(request, options, ctx.now?.() ?? new Date());
  const warnings: string[] = [];

  let mode = r.mode;
  if (mode !== 'bm25' && (!indexes.dense || indexes.dense.size() === 0)) {
    if (mode === 'dense') throw createError('INDEX_UNAVAILABLE', 'the dense index has not been built yet: run `quin index`');
    mode = 'bm25';
    warnings.push('dense index not built yet: BM25 only');
  }
  const reranker = r.rerank && ctx.reranker ? ctx.reranker : null;
  const wantsVerdict = r.verdict && query.kind === 'claim' && Boolean(ctx.verdict);
  const needsVector = mode !== 'bm25' || r.evidenceTop > 0 || reranker !== null || wantsVerdict;

  const filtered = hasFilter(r);
  const k = options.retrieveK;
  // BM25 does not wait for the query embedding: BM25 starts first (an Elasticsearch request is then in
  // flight while the encoder runs; FTS5 is synchronous and finishes first), and only the dense search
  // waits for the vector.
  const bm25Run: Promise<Hit[]> =
    mode === 'dense'
      ? Promise.resolve([])
      : timer.time('bm25', () => guard('INDEX_UNAVAILABLE', `BM25 index (${indexes.bm25.backend})`, () => indexes.bm25.search({ text: query.text, terms: query.terms }, k, indexFilter(r))));
  const embedding: Promise<Float32Array | null> = needsVector
    ? timer.time('embed', () =>
        guard('MODEL_UNAVAILABLE', `encoder ${indexes.encoder.id}`, async () => {
          const v = await embedQuery(indexes.encoder, query.text);
          if (!v || v.length !== indexes.encoder.dim) throw new Error('no embedding returned');
          return v;
        }),
      )
    : Promise.resolve(null);
  const [queryVector, bm25Hits] = await Promise.all([embedding, bm25Run]);
  const denseHits =
    mode === 'bm25'
      ? []
      : await timer.time('dense', () => guard('INDEX_UNAVAILABLE', 'dense index', () => indexes.dense!.search(queryVector!, filtered ? k * DENSE_FILTER_OVERFETCH : k)));

  const fused = await timer.time('fuse', () => fuse(mode, bm25Hits, denseHits, ctx));
  const meta = await timer.time('load', () => guard('DB_UNAVAILABLE', 'reading snippets', () => loadMeta(db, fused.map((c) => c.snippetId), ctx.provider)));
  let candidates: Ranked[] = [];
  for (const c of fused) {
    const m = meta.get(c.snippetId);
    if (!m || !passesFilter(m, r)) continue;
    candidates.push({ ...c, ...m, relevance: c.fused, rerank: null, recency: 1, final: c.fused, tier: 0 });
  }

  const rows = new Map<number, SnippetRow>();
  const needRows = async (ids: number[]) => {
    const missing = ids.filter((id) => !rows.has(id));
    if (!missing.length) return;
    const got = await guard('DB_UNAVAILABLE', 'reading snippets', () => loadRows(db, missing, ctx.provider));
    for (const [id, row] of got) rows.set(id, row);
  };
  const stageCtx = (): StageContext => ({ query, queryVector: queryVector!, indexes, asOf: r.asOf, halfLifeDays: r.halfLifeDays });

  if (reranker && candidates.length) {
    await timer.time('rerank', async () => {
      const top = candidates.slice(0, Math.max(0, reranker.depth));
      await needRows(top.map((c) => c.snippetId));
      const present = top.filter((c) => rows.has(c.snippetId));
      const scores = await guard('MODEL_UNAVAILABLE', `reranker ${reranker.id}`, () =>
        reranker.rerank(present.map((c) => rerankCandidate(c, rows.get(c.snippetId)!)), stageCtx()),
      );
      if (scores.length !== present.length) throw createError('MODEL_UNAVAILABLE', `reranker ${reranker.id} returned ${scores.length} scores for ${present.length} candidates`);
      present.forEach((c, i) => {
        const s = scores[i]!;
        c.rerank = s.rerank;
        c.relevance = Number.isFinite(s.relevance) ? Math.max(0, s.relevance) : 0;
      });
      const reranked = new Set(present.map((c) => c.snippetId));
      for (const c of candidates) c.tier = reranked.has(c.snippetId) ? 0 : 1;
    });
  }

  const ranked = await timer.time('rank', () => {
    for (const c of candidates) {
      c.recency = recencyFactor(c.publishedAt, r.asOf, r.halfLifeDays);
      c.final = decayed(c.relevance, c.recency);
    }
    candidates = sortRanked(candidates, r.sort);
    return limitPerArticle(candidates, r.perArticle);
  });
  const page = pageOf(ranked, r.page, r.k);
  const verdictPool = wantsVerdict ? ranked.slice(0, ctx.verdict!.depth) : [];

  const results = await timer.time('evidence', async () => {
    await needRows([...page, ...verdictPool].map((c) => c.snippetId));
    const withEvidence = new Set([...page.slice(0, r.evidenceTop), ...verdictPool].map((c) => c.snippetId));
    const sentences = new Map([...withEvidence].filter((id) => rows.has(id)).map((id) => [id, snippetSentences(rows.get(id)!.text, rows.get(id)!.sentenceSpans)]));
    // The indexer caches vectors under the trimmed sentence text.
    const flat = [...new Set([...sentences.values()].flatMap((ss) => ss.map((s) => s.text.trim())))];
    const vectors = flat.length ? await guard('INDEX_UNAVAILABLE', 'sentence vectors', () => indexes.sentenceVectors.get(flat)) : [];
    const vecOf = new Map(flat.map((t, i) => [t, vectors[i] ?? null]));
    const toResult = (c: Ranked): SearchResult | null => {
      const row = rows.get(c.snippetId);
      if (!row) return null;
      const ss = sentences.get(c.snippetId);
      return {
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
        evidence: ss ? pickEvidence(ss, ss.map((s) => vecOf.get(s.text.trim()) ?? null), queryVector, query.terms, options.evidenceSentences) : [],
        score: c.final,
        scores: { bm25: c.bm25, bm25Rank: c.bm25Rank, dense: c.dense, denseRank: c.denseRank, fused: c.fused, rerank: c.rerank, recency: c.recency, final: c.final },
      };
    };
    return { page: page.map(toResult).filter((x): x is SearchResult => x !== null), pool: verdictPool.map(toResult).filter((x): x is SearchResult => x !== null) };
  });

  let verdict: SearchResponse['verdict'] = null;
  let verdictStatus: SearchResponse['verdictStatus'];
  if (query.kind === 'question') verdictStatus = 'question';
  else if (!r.verdict) verdictStatus = 'disabled';
  else if (!ctx.verdict) verdictStatus = 'no_model';
  else {
    const stage = ctx.verdict;
    verdict = await timer.time('verdict', () => guard('MODEL_UNAVAILABLE', `verdict ${stage.id}`, () => stage.verdict(results.pool, stageCtx())));
    verdictStatus = 'ok';
  }

  const response: SearchResponse = {
    query: query.text,
    kind: query.kind,
    page: r.page,
    k: r.k,
    total: ranked.length,
    results: results.page,
    verdict,
    verdictStatus,
    halfLifeDays: r.halfLifeDays,
    asOf: r.asOf.toISOString(),
    timingsMs: { ...timer.ms, total: timer.total() },
    models: {
      encoder: indexes.encoder.id,
      reranker: reranker?.id ?? null,
      nli: verdictStatus === 'ok' ? ctx.verdict!.id : null,
      bm25: indexes.bm25.backend,
    },
  };
  if (r.coverage) response.coverage = weeklyCoverage(mode === 'dense' ? candidates : candidates.filter((c) => c.bm25 !== null));
  if (warnings.length) response.warnings = warnings;
  return response;
}
