/**
 * Interfaces of the pluggable stages of the search pipeline (ranking/pipeline.ts):
 *
 *   analyse → retrieve (BM25 ‖ dense) → fuse → load + filter → [rerank] → time decay → sort →
 *   de-duplicate → page → evidence → [verdict]
 *
 * The reranker (ranking/rerank/) and the verdict (ranking/verdict/) implement these; the pipeline
 * calls them when they are present in the SearchContext and the request does not switch them off.
 * Contract details that both sides rely on are written on the members below.
 */
import type { SearchIndexes } from '../indexer/types';
import type { QueryAnalysis, SearchResult, Verdict } from './types';

/** What every stage may read about the query being answered. */
export interface StageContext {
  query: QueryAnalysis;
  /** The query's embedding from `indexes.encoder` (already computed by the pipeline). */
  queryVector: Float32Array;
  /** Sentence vectors, encoder and indexes, for features such as query–sentence similarities. */
  indexes: SearchIndexes;
  /** t_now of this request (request.asOf or the clock). */
  asOf: Date;
  /** Half-life in days; null when the decay is off. */
  halfLifeDays: number | null;
}

/** A candidate after fusion and filtering, as the reranker reads it. */
export interface RerankCandidate {
  snippetId: number;
  articleId: number;
  title: string;
  text: string;
  /** The snippet's sentences, cut from `text` at its stored sentence spans. */
  sentences: string[];
  publishedAt: Date | null;
  source: string;
  /** First-stage evidence: raw BM25 and dense (cosine) scores, null when that index did not return it. */
  bm25: number | null;
  dense: number | null;
  /** 1-based ranks in each run, null when absent from it. */
  bm25Rank: number | null;
  denseRank: number | null;
  /** Relevance after fusion, ≥ 0 (RRF sum, or normalised weighted score in [0, 1]). */
  fused: number;
}

export interface RerankScore {
  /** The model's own score, shown in the "why this result" breakdown. */
  rerank: number;
  /**
   * The new relevance r ≥ 0 (e.g. the model score combined with `fused` by a weight chosen on the
   * development split). The pipeline then applies the time decay to it. Negative or non-finite values
   * are clamped to 0.
   */
  relevance: number;
}

export interface RerankStage {
  /** Model identity, reported in SearchResponse.models.reranker. */
  readonly id: string;
  /**
   * How many of the top fused candidates (after filters) the stage reads. Candidates below that depth
   * are not rescored: they stay, in their fused order, below every reranked candidate.
   */
  readonly depth: number;
  /** One score per candidate, in input order. */
  rerank(candidates: RerankCandidate[], ctx: StageContext): Promise<RerankScore[]>;
}

export interface VerdictStage {
  /** Model identity, reported in SearchResponse.models.nli. */
  readonly id: string;
  /** How many top results (after decay, sort and de-duplication, before paging) it reads. */
  readonly depth: number;
  /** Evidence sentences per result it reads (the pipeline picks at least this many for its pool). */
  readonly sentences?: number;
  /**
   * Called for claims only (QueryAnalysis.kind === 'claim'), with the top `depth` results, each with
   * its evidence sentences (best first) and its score breakdown (relevance, recency).
   */
  verdict(results: SearchResult[], ctx: StageContext): Promise<Verdict>;
  /** Whether two claims are the same claim (same entities, numbers, direction and polarity), e.g. a published fact-check's and the reader's. */
  sameClaim?(a: string, b: string): Promise<{ same: boolean; reason: string }>;
}
