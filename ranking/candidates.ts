/**
 * Stages between retrieval and the page: "load and filter", "floor" (only real matches go on),
 * "rerank", "decay", "rank" (sort and per-article limit) and "de-duplicate" (one story once). Each
 * works on the same candidate records, which carry everything the score breakdown shows.
 */
import { yieldToEventLoop } from '../indexer/event-loop';
import type { SearchContext } from './context';
import { decayed, ageDays, recencyOf, referenceAge, type Recency } from './decay';
import { sameStoryOf, shingled, shingledText, type Shingled } from './duplicates';
import { denseThresholds, matching, termMatcher, type TermMatcher } from './floor';
import type { FusedCandidate } from './fusion';
import type { ResolvedRequest } from './request';
import { guard } from './run';
import { passesFilter } from './select';
import { loadMeta, loadMetaAndTexts, type SnippetMeta, type SnippetText } from './snippets';
import type { QueryAnalysis } from './types';

export interface Candidate extends FusedCandidate, SnippetMeta {
  /** Share of the query's terms in the title and text (the floor's lexical signal). */
  coverage: number;
  relevance: number;
  rerank: number | null;
  recency: Recency;
  final: number;
  /** 0 = reranked, 1 = below the reranker's depth (always after tier 0). */
  tier: number;
  /** Other copies of the same story, collapsed into this one. */
  duplicates: Candidate[];
}

const NO_RECENCY: Recency = Object.freeze({ factor: 1, basis: 'off', assumedAgeDays: null });

/**
 * A candidate written out field by field: one object shape for every candidate of every search. Built
 * by spreading the fused record and the row (~1,000 a query), the objects took 8 µs each, half the
 * stage (V8 makes spread copies of differently shaped objects slow dictionaries).
 */
function candidate(c: FusedCandidate, m: SnippetMeta): Candidate {
  return {
    snippetId: c.snippetId,
    bm25: c.bm25,
    bm25Rank: c.bm25Rank,
    dense: c.dense,
    denseRank: c.denseRank,
    fused: c.fused,
    id: m.id,
    articleId: m.articleId,
    source: m.source,
    publishedAt: m.publishedAt,
    createdAt: m.createdAt,
    coverage: 0,
    relevance: c.fused,
    rerank: null,
    recency: NO_RECENCY,
    final: c.fused,
    tier: 0,
    duplicates: [],
  };
}

/**
 * A candidate's text as one search reads it, with what the floor and the de-duplication derive from
 * it, kept once computed: the share of the query's terms it holds and its shingles. The records are
 * this search's own (read for it), so the query-dependent share cannot leak into another search.
 */
export interface PassageText extends SnippetText {
  coverage?: number;
  shingled?: Shingled;
}

type Rows = { meta: Map<number, SnippetMeta>; texts: Map<number, PassageText> };

const coverageIn = (t: PassageText, terms: TermMatcher) =>
  (t.coverage ??= terms.count ? terms.shared(`${t.title}\n${t.text}`) / terms.count : 0);
const shinglesOf = (t: PassageText) => (t.shingled ??= shingledText(t.text));
/** Passages read ahead between two looks at whether to stop (each a few microseconds). */
const PREPARE_SLICE = 64;

/**
 * The floor's and the de-duplication's reading of these texts done ahead: the BM25 hits' texts while
 * the dense search still runs in its thread and the main thread would only wait. It yields between
 * slices and stops as soon as `stop()` says so (the dense results are in); the rest is read where
 * the stages need it, as without this.
 */
export async function prepareTexts(
  texts: ReadonlyMap<number, PassageText>,
  query: QueryAnalysis,
  ctx: SearchContext,
  stop: () => boolean,
): Promise<void> {
  const { relevanceFloor, oneStoryOnce } = ctx.options;
  if (!relevanceFloor && !oneStoryOnce) return;
  const terms = termMatcher(query.terms);
  const all = [...texts.values()];
  for (let at = 0; at < all.length && !stop(); at += PREPARE_SLICE) {
    for (const t of all.slice(at, at + PREPARE_SLICE)) {
      coverageIn(t, terms);
      if (oneStoryOnce) shinglesOf(t);
    }
    await yieldToEventLoop();
  }
}

/** What the later stages read of these snippets: metadata, and the texts when the floor or the de-duplication reads them. */
export function readCandidates(ids: readonly number[], ctx: SearchContext): Promise<Rows> {
  const withText = ctx.options.relevanceFloor || ctx.options.oneStoryOnce;
  return guard('DB_UNAVAILABLE', 'reading snippets', async () =>
    withText ? loadMetaAndTexts(ctx.db, ids, ctx.provider) : { meta: await loadMeta(ctx.db, ids, ctx.provider), texts: new Map() },
  );
}

/**
 * Stage "load and filter": snippet metadata for every fused candidate, the request's filters applied;
 * with `withText`, their texts in the same read (the floor and the de-duplication read them).
 * `early`: rows already read (the BM25 hits, read while the dense search ran); only the rest is read.
 */
export async function loadAndFilter(
  fused: readonly FusedCandidate[],
  r: ResolvedRequest,
  ctx: SearchContext,
  early?: Promise<Rows | null>,
): Promise<{ candidates: Candidate[]; texts: Map<number, PassageText> }> {
  const have = (await early) ?? { meta: new Map<number, SnippetMeta>(), texts: new Map<number, PassageText>() };
  const rest = await readCandidates(
    fused.map((c) => c.snippetId).filter((id) => !have.meta.has(id)),
    ctx,
  );
  const meta = merged(have.meta, rest.meta);
  const texts = merged(have.texts, rest.texts);
  const out: Candidate[] = [];
  for (const c of fused) {
    const m = meta.get(c.snippetId);
    if (!m || !passesFilter(m, r) || r.exclude?.has(m.articleId)) continue;
    out.push(candidate(c, m));
  }
  return { candidates: out, texts };
}

function merged<V>(into: Map<number, V>, more: Map<number, V>): Map<number, V> {
  for (const [k, v] of more) into.set(k, v);
  return into;
}

/** Stage "floor": the candidates that actually match (their texts were read with their metadata). */
export function applyFloor(
  cands: Candidate[],
  texts: Map<number, PassageText>,
  query: QueryAnalysis,
  withDense: boolean,
  ctx: SearchContext,
): { matches: Candidate[]; texts: Map<number, PassageText> } {
  const { relevanceFloor, oneStoryOnce } = ctx.options;
  if (!relevanceFloor && !oneStoryOnce) return { matches: cands, texts };
  const terms = termMatcher(query.terms);
  for (const c of cands) {
    const t = texts.get(c.snippetId);
    c.coverage = t ? coverageIn(t, terms) : 0;
  }
  if (!relevanceFloor) return { matches: cands, texts };
  const thresholds = denseThresholds(ctx.indexes.dense?.floor?.());
  const keep = matching(cands, terms.count, withDense, thresholds);
  return { matches: cands.filter((_, i) => keep[i]), texts };
}

/** Stage "decay": relevance × recency; undated text is as old as the dated results that would fill the first page (decay.ts). */
export function applyDecay(cands: Candidate[], r: ResolvedRequest): void {
  const reference = referenceAge(
    cands.flatMap((c) => (c.publishedAt ? [{ ageDays: ageDays(c.publishedAt, r.asOf), relevance: c.relevance, tier: c.tier }] : [])),
    r.halfLifeDays,
  );
  for (const c of cands) {
    c.recency = recencyOf(c, r.asOf, r.halfLifeDays, reference);
    c.final = decayed(c.relevance, c.recency.factor);
  }
}

/**
 * Stage "de-duplicate": near-duplicate stories collapsed into their best-ranked copy. Two articles are
 * one story when any of their matching passages are near-duplicates (`all`, every match before the
 * per-article limit): the best passage of one copy can be another window of the text than the other
 * copy's best, and the two shown passages then share too little to be recognised by themselves.
 * Passages of one article shown together stay apart unless they are near-duplicates of each other.
 */
export function collapseStories(
  ranked: readonly Candidate[],
  texts: ReadonlyMap<number, PassageText>,
  all: readonly Candidate[] = ranked,
): Candidate[] {
  // Each passage shingled once (kept on its text; the BM25 hits' maybe while the dense search ran).
  const of = (cs: readonly Candidate[]) =>
    cs.map((c) => {
      const t = texts.get(c.snippetId);
      return t ? shinglesOf(t) : shingled([]);
    });
  const passageLeader = sameStoryOf(of(ranked));
  const storyOf = articleStories([
    [ranked, passageLeader],
    [all, all === ranked ? passageLeader : sameStoryOf(of(all))],
  ]);
  const leaders = new Map<number, Candidate>();
  const out: Candidate[] = [];
  ranked.forEach((c, i) => {
    const story = storyOf(c.articleId);
    const lead = leaders.get(story);
    if (!lead) {
      leaders.set(story, c);
      out.push(c);
    } else if (lead.articleId !== c.articleId || passageLeader[i]! >= 0) lead.duplicates.push(c);
    else out.push(c);
  });
  return out;
}

/**
 * The story of each article, as a lookup: articles joined whenever a passage of one is a
 * near-duplicate of a passage of the other (each list with its sameStory leaders).
 */
function articleStories(runs: readonly (readonly [readonly Candidate[], readonly number[]])[]): (articleId: number) => number {
  const parent = new Map<number, number>();
  const find = (a: number): number => {
    let root = a;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(a, root);
    return root;
  };
  for (const [cands, leaderOf] of runs)
    leaderOf.forEach((lead, i) => {
      if (lead < 0) return;
      const [a, b] = [find(cands[i]!.articleId), find(cands[lead]!.articleId)];
      if (a !== b) parent.set(a, b);
    });
  return find;
}
