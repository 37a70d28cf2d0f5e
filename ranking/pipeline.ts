/**
 * The search pipeline, one entry point for the CLI, the JSON API and the web pages, as a sequence of
 * named stages (each timed in `timingsMs`):
 *
 *   analyse → retrieve (BM25 ‖ dense, top K each) → fuse → load + filter → floor (real matches only)
 *   → [rerank top N] → decay → rank (sort, per article) → de-duplicate (one story once) → page →
 *   evidence sentences → [verdict: claims with a real match]
 *
 * Every failure reaches the caller as a QuinError: QUERY_* for the text, INVALID_INPUT for the
 * parameters, INDEX_UNAVAILABLE when an index fails underneath. A model stage is a feature that fails
 * alone: a reranker or verdict model that cannot serve (not loaded, or failing on this search) leaves
 * the results as the first stage ranked them, or without a verdict, and the response says why
 * (`warnings`, `models.unavailable`, `verdictStatus: 'unavailable'`).
 */
import { createError, isQuinError } from '../lib/errors';
import { withoutServerPaths } from '../lib/public-text';
import { weeklyCoverage } from './coverage';
import { applyDecay, applyFloor, collapseStories, loadAndFilter, type Candidate } from './candidates';
import type { FeatureProblem, SearchContext } from './context';
import { analyzeQuery } from './query';
import { resolveRequest, type ResolvedRequest } from './request';
import { fuse, retrieve, servingMode, type Retrieved } from './retrieve';
import { RowCache, toResults } from './results';
import { guard, SearchRun } from './run';
import { hasFilter, limitPerArticle, pageOf, sortRanked } from './select';
import type { RerankCandidate, StageContext } from './stages';
import { sentencesAtSpans } from '../lib/text/sentences';
import type { QueryAnalysis, SearchRequest, SearchResponse, SearchResult } from './types';

export { SCORE_NORMALIZATION } from './retrieve';

interface Analysed {
  query: QueryAnalysis;
  req: ResolvedRequest;
}

/** Stage "analyse": the parameters validated (the one request schema), the text read as a claim, question or keywords. */
function analyse(request: SearchRequest, ctx: SearchContext): Analysed {
  const req = resolveRequest(request, ctx.options, ctx.now?.() ?? new Date());
  return { req, query: analyzeQuery(req.q, { maxChars: ctx.options.maxQueryChars }) };
}

function stageContext(a: Analysed, hits: Retrieved, ctx: SearchContext): StageContext {
  return { query: a.query, queryVector: hits.vector!, indexes: ctx.indexes, asOf: a.req.asOf, halfLifeDays: a.req.halfLifeDays };
}

function rerankInput(c: Candidate, rows: RowCache): RerankCandidate {
  const row = rows.get(c.snippetId)!;
  return { ...c, title: row.title, text: row.text, sentences: sentencesAtSpans(row.text, row.sentenceSpans).map((s) => s.text) };
}

/** The stories of a ranked list of matches: near-duplicates collapsed when the options say so. */
function storiesOf(matches: Candidate[], req: ResolvedRequest, texts: ReturnType<typeof applyFloor>['texts'], ctx: SearchContext) {
  applyDecay(matches, req);
  const sorted = sortRanked([...matches], req.sort);
  const ranked = limitPerArticle(sorted, req.perArticle);
  return ctx.options.oneStoryOnce ? collapseStories(ranked, texts, sorted) : ranked;
}

/**
 * How many stories the same search finds without its date and source filters. A filter keeps a
 * subset of the matches, so the count it shows must not exceed this — but a filtered search retrieves
 * deeper within its filter (BM25 inside the filter, the dense run 4× deeper), where the unfiltered
 * search's top K stop: "as of" turned 501 matching passages into 1,649. Null when it cannot be had.
 */
async function unfilteredTotal(a: Analysed, mode: Retrieved['mode'], ctx: SearchContext): Promise<number | null> {
  try {
    const req: ResolvedRequest = { ...a.req, from: null, to: null, sources: null };
    const run = new SearchRun();
    const hits = await retrieve(a.query, req, mode, mode !== 'bm25', ctx, run);
    const loaded = await loadAndFilter(fuse(hits, ctx), req, ctx, hits.early);
    const { matches, texts } = applyFloor(loaded.candidates, loaded.texts, a.query, mode !== 'bm25', ctx);
    return storiesOf(matches, req, texts, ctx).length;
  } catch {
    return null;
  }
}

/** Stage "rerank": the top `depth` matches rescored; the rest keep their order below them. */
async function rerankStage(matches: Candidate[], a: Analysed, hits: Retrieved, rows: RowCache, ctx: SearchContext): Promise<void> {
  const reranker = ctx.reranker!;
  const top = matches.slice(0, Math.max(0, Math.min(reranker.depth, a.req.rerankDepth ?? reranker.depth)));
  await rows.need(top.map((c) => c.snippetId));
  const present = top.filter((c) => rows.get(c.snippetId));
  const scores = await guard('MODEL_UNAVAILABLE', `the reranker ${reranker.id}`, () =>
    reranker.rerank(
      present.map((c) => rerankInput(c, rows)),
      stageContext(a, hits, ctx),
    ),
  );
  if (scores.length !== present.length)
    throw createError('MODEL_UNAVAILABLE', `reranker ${reranker.id} returned ${scores.length} scores for ${present.length} candidates`);
  present.forEach((c, i) => {
    c.rerank = scores[i]!.rerank;
    c.relevance = Number.isFinite(scores[i]!.relevance) ? Math.max(0, scores[i]!.relevance) : 0;
  });
  const reranked = new Set(present.map((c) => c.snippetId));
  for (const c of matches) c.tier = reranked.has(c.snippetId) ? 0 : 1;
}

type VerdictOutcome = Pick<SearchResponse, 'verdict' | 'verdictStatus'>;

/** Whether the verdict stage runs: claims only, with a real match, when a model is configured, loaded and wanted. */
function verdictStatus(a: Analysed, matched: boolean, ctx: SearchContext): SearchResponse['verdictStatus'] | null {
  if (a.query.kind !== 'claim') return a.query.kind;
  if (!a.req.verdict) return 'disabled';
  if (!ctx.verdict) return ctx.unavailable?.verdict ? 'unavailable' : 'no_model';
  return matched ? null : 'no_match';
}

/** "the NLI model quin-nli: <problem>", for warnings and `models.unavailable`. */
const featureLine = (what: string, p: FeatureProblem) => `the ${what} ${p.model}: ${p.problem}`;

/** Stage "verdict": the NLI stage reads the top stories (duplicates collapsed, so a story counts once). */
async function verdictStage(a: Analysed, pool: SearchResult[], hits: Retrieved, ctx: SearchContext): Promise<VerdictOutcome> {
  const stage = ctx.verdict!;
  const verdict = await guard('MODEL_UNAVAILABLE', `the verdict ${stage.id}`, () => stage.verdict(pool, stageContext(a, hits, ctx)));
  return { verdict, verdictStatus: 'ok' };
}

function describeStageError(e: unknown): string {
  return isQuinError(e) ? e.message : e instanceof Error ? e.message : String(e);
}

function coverageOf(matches: readonly Candidate[], stories: readonly Candidate[]): Pick<SearchResponse, 'coverage' | 'coverageUndated'> {
  const copies = new Set(stories.flatMap((s) => s.duplicates.map((d) => d.articleId)));
  const counted = matches.filter((c) => !copies.has(c.articleId));
  return {
    coverage: weeklyCoverage(counted),
    coverageUndated: new Set(counted.filter((c) => !c.publishedAt).map((c) => c.articleId)).size,
  };
}

export async function search(request: SearchRequest, ctx: SearchContext): Promise<SearchResponse> {
  const run = new SearchRun();
  const a = await run.time('analyze', () => analyse(request, ctx));
  const mode = await servingMode(a.req.mode, ctx, run);
  const reranker = a.req.rerank && ctx.reranker ? ctx.reranker : null;
  const mayJudge = verdictStatus(a, true, ctx) === null;
  const hits = await retrieve(a.query, a.req, mode, mode !== 'bm25' || a.req.evidenceTop > 0 || reranker !== null || mayJudge, ctx, run);
  // Started now, awaited at the end: it runs while the filtered search goes on.
  const bound = hasFilter(a.req) ? run.time('count', () => unfilteredTotal(a, mode, ctx)) : Promise.resolve(null);
  const fused = await run.time('fuse', () => fuse(hits, ctx));
  const loaded = await run.time('load', () => loadAndFilter(fused, a.req, ctx, hits.early));
  const { matches, texts } = await run.time('floor', () => applyFloor(loaded.candidates, loaded.texts, a.query, mode !== 'bm25', ctx));
  const rows = new RowCache(ctx);
  const unavailable: { reranker?: string; nli?: string } = {};
  let reranked = reranker;
  if (a.req.rerank && ctx.unavailable?.reranker) {
    unavailable.reranker = featureLine('reranker', ctx.unavailable.reranker);
    run.warnings.push(`not reranked: ${unavailable.reranker}`);
  }
  if (reranker && matches.length) {
    try {
      await run.time('rerank', () => rerankStage(matches, a, hits, rows, { ...ctx, reranker }));
    } catch (e) {
      // The first stage's order stands (the scores are set only once all of them came back).
      reranked = null;
      unavailable.reranker = withoutServerPaths(describeStageError(e));
      run.warnings.push(`not reranked: ${unavailable.reranker}`);
    }
  }
  const found = await run.time('rank', () => storiesOf(matches, a.req, texts, ctx));
  // A filter never raises the count: what lies beyond the unfiltered count is not counted or paged.
  const unfiltered = await bound;
  const stories = unfiltered !== null && found.length > unfiltered ? found.slice(0, unfiltered) : found;
  const page = pageOf(stories, a.req.page, a.req.k);
  const status = verdictStatus(a, matches.length > 0, ctx);
  const pool = status === null ? stories.slice(0, ctx.verdict!.depth) : [];
  const verdictPool = status === null ? { pool: new Set(pool.map((c) => c.snippetId)), sentences: ctx.verdict!.sentences ?? 0 } : undefined;
  const results = await run.time('evidence', () =>
    toResults(
      {
        shown: page,
        withEvidence: [...page.slice(0, a.req.evidenceTop), ...pool],
        verdict: verdictPool,
        query: a.query,
        queryVector: hits.vector,
      },
      rows,
      ctx,
    ),
  );
  const pick = (cs: Candidate[]) => cs.flatMap((c) => results.get(c.snippetId) ?? []);
  let verdict: VerdictOutcome = { verdict: null, verdictStatus: status ?? 'ok' };
  if (status === null) {
    try {
      verdict = await run.time('verdict', () => verdictStage(a, pick(pool), hits, ctx));
    } catch (e) {
      // A stage that fails on this search gives no verdict, and says why, instead of failing the search.
      unavailable.nli = withoutServerPaths(describeStageError(e));
      verdict = { verdict: null, verdictStatus: 'unavailable' };
    }
  } else if (status === 'unavailable' && ctx.unavailable?.verdict) unavailable.nli = featureLine('NLI model', ctx.unavailable.verdict);
  if (unavailable.nli) run.warnings.push(`no verdict: ${unavailable.nli}`);
  // The page shows the configured number of evidence sentences, whatever the verdict read.
  const shown = (cs: Candidate[]) =>
    pick(cs).map((r) =>
      r.evidence.length > ctx.options.evidenceSentences ? { ...r, evidence: r.evidence.slice(0, ctx.options.evidenceSentences) } : r,
    );
  const response: SearchResponse = {
    query: a.query.text,
    kind: a.query.kind,
    page: a.req.page,
    k: a.req.k,
    total: stories.length,
    results: shown(page),
    ...verdict,
    halfLifeDays: a.req.halfLifeDays,
    asOf: a.req.asOf.toISOString(),
    timingsMs: run.timings(),
    models: {
      encoder: ctx.indexes.encoder.id,
      reranker: reranked?.id ?? null,
      nli: verdict.verdictStatus === 'ok' ? ctx.verdict!.id : null,
      bm25: ctx.indexes.bm25.backend,
      dense: mode !== 'bm25',
      ...(Object.keys(unavailable).length ? { unavailable } : {}),
    },
    ...(a.req.coverage ? coverageOf(matches, stories) : {}),
  };
  const warnings = [...a.req.notes, ...run.warnings];
  if (warnings.length) response.warnings = warnings;
  return response;
}
