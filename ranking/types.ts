/**
 * The search pipeline's request and response: one shape for the CLI (`quin search --json`), the JSON
 * API and the web pages.
 */

export interface SearchRequest {
  q: string;
  /** Results per page (default 10). */
  k?: number;
  /** 1-based page. */
  page?: number;
  /** Half-life of the time decay in days; Infinity (or null) turns the decay off. */
  halfLifeDays?: number | null;
  /** Fixes t_now for reproducible results. */
  asOf?: Date;
  from?: Date;
  to?: Date;
  maxAgeDays?: number;
  sources?: string[];
  /** time-aware relevance (default) or newest first. */
  sort?: 'relevance' | 'newest';
  /** Results per article on a page (0 = no de-duplication). */
  perArticle?: number;
  /** Stages that can be switched off per request (eval runs, latency-sensitive callers). */
  rerank?: boolean;
  verdict?: boolean;
  /** Retrieval mode (eval runs): both indexes (default) or one. */
  mode?: 'hybrid' | 'bm25' | 'dense';
  /** How many results of the page get evidence sentences (default: all of them; 0 = none). */
  evidenceTop?: number;
  /** Also return the per-week coverage histogram of all matching candidates. */
  coverage?: boolean;
}

export interface EvidenceSentence {
  text: string;
  /** Character offsets in the result's `text`. */
  start: number;
  end: number;
  score: number;
}

/** How the final score came about ("why this result"). */
export interface ScoreBreakdown {
  bm25: number | null;
  bm25Rank: number | null;
  dense: number | null;
  denseRank: number | null;
  fused: number;
  rerank: number | null;
  /** 2^(−age/h), 1 when the decay is off or the date is unknown. */
  recency: number;
  final: number;
}

export interface SearchResult {
  snippetId: number;
  articleId: number;
  /** Window number within the article, and its sentence range [sentenceStart, sentenceEnd). */
  position: number;
  sentenceStart: number;
  sentenceEnd: number;
  title: string;
  url: string;
  source: string;
  publishedAt: string | null;
  text: string;
  evidence: EvidenceSentence[];
  score: number;
  scores: ScoreBreakdown;
}

export type VerdictLabel = 'SUPPORTED' | 'REFUTED' | 'MIXED' | 'NOT_ENOUGH_EVIDENCE';
export type Stance = 'supports' | 'refutes' | 'neutral';

export interface StanceEvidence {
  snippetId: number;
  sentence: string;
  title: string;
  url: string;
  source: string;
  publishedAt: string | null;
  stance: Stance;
  /** NLI probability of the stance. */
  confidence: number;
  /** Relevance × recency × confidence weight used in the aggregate. */
  weight: number;
}

export interface Verdict {
  label: VerdictLabel;
  confidence: number;
  evidence: { supports: StanceEvidence[]; refutes: StanceEvidence[]; neutral: StanceEvidence[] };
  model: string;
  /** Why the verdict abstained, when it did. */
  reason?: string;
}

export interface SearchResponse {
  query: string;
  kind: 'claim' | 'question';
  page: number;
  k: number;
  /** Candidates that passed the filters (before paging). */
  total: number;
  results: SearchResult[];
  /** Present for claims when an NLI model is configured; null otherwise (with `verdictStatus` saying why). */
  verdict: Verdict | null;
  verdictStatus: 'ok' | 'question' | 'no_model' | 'disabled';
  halfLifeDays: number | null;
  asOf: string;
  timingsMs: Record<string, number>;
  models: { encoder: string; reranker: string | null; nli: string | null; bm25: string };
  /** Present when the request asked for it. */
  coverage?: WeekCount[];
  /** Degraded answers say why (e.g. "dense index not built yet: BM25 only"). */
  warnings?: string[];
}

/** Matching articles per ISO week (weeks start on Monday, UTC). */
export interface WeekCount {
  /** Monday of the week, YYYY-MM-DD. */
  week: string;
  articles: number;
  snippets: number;
}

/** What query analysis made of the user's text (ranking/query.ts). */
export interface QueryAnalysis {
  /** The text as searched: control characters removed, whitespace collapsed, NFC. */
  text: string;
  kind: 'claim' | 'question';
  /**
   * The statement to check for claims (for "Is it true that X?" this is X); for questions the text.
   * NLI reads this, not `text`.
   */
  claim: string;
  /** Lower-cased word tokens for BM25, stop words removed unless nothing else is left. */
  terms: string[];
}
