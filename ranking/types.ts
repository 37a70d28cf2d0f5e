/**
 * The search pipeline's request and response: one shape for the CLI (`quin search --json`), the JSON
 * API and the web pages, inferred from the zod schemas in ranking/schema.ts (the one definition).
 */
export type {
  SearchRequest,
  SearchParams,
  SearchLimits,
  EvidenceSentence,
  ScoreBreakdown,
  Duplicate,
  SearchResult,
  Stance,
  StanceEvidence,
  DetailCheck,
  VerdictLabel,
  Verdict,
  WeekCount,
  QueryKind,
  SearchResponse,
} from './schema';
import type { QueryKind } from './schema';

/** What query analysis made of the user's text (ranking/query.ts). */
export interface QueryAnalysis {
  /** The text as searched: control characters removed, whitespace collapsed, NFC. */
  text: string;
  /** A statement to check, a question, or keywords (no verb, short: evidence only, no verdict). */
  kind: QueryKind;
  /**
   * The statement to check for claims (for "Is it true that X?" this is X); otherwise the text.
   * NLI reads this, not `text`.
   */
  claim: string;
  /** Lower-cased word tokens for BM25, stop words removed unless nothing else is left. */
  terms: string[];
}
