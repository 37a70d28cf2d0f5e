/**
 * GET /api/search: the query string (the CLI's parameters) and the response. The response schema is
 * checked against ranking/types.ts at compile time, and the OpenAPI document is generated from both.
 */
import { z } from 'zod';
import type { SearchResponse } from '../../../ranking/types';

const day = z.iso.date();
const instant = z.iso.datetime({ offset: true });
const dateParam = z.union([day, instant]);

/** `sources=a&sources=b` or `sources=a,b`. */
const listParam = z.preprocess(
  (v) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(',')).map((s) => s.trim()).filter(Boolean)),
  z.array(z.string().max(200)).max(50).optional(),
);

const boolParam = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const searchQuery = z.object({
  q: z.string().trim().min(1, 'give a claim or a question').max(1000).describe('The claim or question.'),
  k: z.coerce.number().int().min(1).max(100).default(10).describe('Results per page.'),
  page: z.coerce.number().int().min(1).max(500).default(1).describe('1-based page.'),
  halfLifeDays: z
    .union([z.literal('off'), z.coerce.number().min(0.01).max(36500)])
    .optional()
    .describe('Half-life of the time decay in days, or `off`. Default: the server setting (QUIN_HALF_LIFE_DAYS).'),
  asOf: dateParam.optional().describe('"Now" for the time decay and maxAgeDays (reproducible results). Default: the current time.'),
  from: dateParam.optional().describe('Earliest publication date (inclusive).'),
  to: dateParam.optional().describe('Latest publication date (inclusive; a bare date means the end of that day).'),
  maxAgeDays: z.coerce.number().min(0).max(36500).optional().describe('Only articles at most this many days older than asOf.'),
  sources: listParam.describe('Only these sources (repeat the parameter or separate with commas).'),
  sort: z.enum(['relevance', 'newest']).default('relevance').describe('Time-aware relevance, or newest first.'),
  verdict: boolParam.optional().describe('Compute the verdict for claims (default true when a model is configured).'),
  coverage: boolParam.optional().describe('Also return matching coverage per week.'),
});
export type SearchQuery = z.output<typeof searchQuery>;

const scoreBreakdown = z.object({
  bm25: z.number().nullable(),
  bm25Rank: z.number().int().nullable(),
  dense: z.number().nullable(),
  denseRank: z.number().int().nullable(),
  fused: z.number(),
  rerank: z.number().nullable(),
  recency: z.number(),
  final: z.number(),
});

const evidenceSentence = z.object({ text: z.string(), start: z.number().int(), end: z.number().int(), score: z.number() });

const searchResult = z.object({
  snippetId: z.number().int(),
  articleId: z.number().int(),
  position: z.number().int(),
  sentenceStart: z.number().int(),
  sentenceEnd: z.number().int(),
  title: z.string(),
  url: z.string(),
  source: z.string(),
  publishedAt: z.string().nullable(),
  text: z.string(),
  evidence: z.array(evidenceSentence),
  score: z.number(),
  scores: scoreBreakdown,
});

const stanceEvidence = z.object({
  snippetId: z.number().int(),
  sentence: z.string(),
  title: z.string(),
  url: z.string(),
  source: z.string(),
  publishedAt: z.string().nullable(),
  stance: z.enum(['supports', 'refutes', 'neutral']),
  confidence: z.number(),
  weight: z.number(),
});

const verdict = z.object({
  label: z.enum(['SUPPORTED', 'REFUTED', 'MIXED', 'NOT_ENOUGH_EVIDENCE']),
  confidence: z.number(),
  evidence: z.object({ supports: z.array(stanceEvidence), refutes: z.array(stanceEvidence), neutral: z.array(stanceEvidence) }),
  model: z.string(),
  reason: z.string().optional(),
});

export const searchResponse = z.object({
  query: z.string(),
  kind: z.enum(['claim', 'question']),
  page: z.number().int(),
  k: z.number().int(),
  total: z.number().int(),
  results: z.array(searchResult),
  verdict: verdict.nullable(),
  verdictStatus: z.enum(['ok', 'question', 'no_model', 'disabled']),
  halfLifeDays: z.number().nullable(),
  asOf: z.string(),
  timingsMs: z.record(z.string(), z.number()),
  models: z.object({ encoder: z.string(), reranker: z.string().nullable(), nli: z.string().nullable(), bm25: z.string() }),
  coverage: z.array(z.object({ week: z.string(), articles: z.number().int(), snippets: z.number().int() })).optional(),
  warnings: z.array(z.string()).optional(),
});

// Compile-time agreement with the pipeline's own type, both ways.
// Compile-time check: every SearchResponse fits this schema (new fields there must be added here; the API
// e2e tests parse real responses with the strict schema to catch what a type check cannot).
export function asSearchResponseJson(v: SearchResponse): z.output<typeof searchResponse> {
  return v;
}
