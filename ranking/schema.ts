/**
 * The search contract, defined once: the request and the response as zod schemas, the TypeScript
 * types inferred from them. The CLI (`quin search`), the JSON API (`GET /api/search`, whose OpenAPI
 * document is generated from these schemas) and the pipeline (`search()`) all validate through
 * `searchRequestSchema(limits)`, built from the same settings, so they accept the same requests.
 *
 * The request schema reads the query-string form (numbers and dates as text, `halfLifeDays=off`)
 * and the programmatic form (numbers, Date objects, null for "no decay") alike, and its output is
 * valid input again (the API validates, then the pipeline validates what it is given). Dates stay
 * text in the output (ISO or YYYY-MM-DD), as the URLs and forms carry them; ranking/request.ts turns
 * them into instants (a bare `to` date means the end of that day).
 *
 * This module imports nothing but zod: the web form's client bundle uses it too.
 */
import { z } from 'zod';

/** Limits that depend on the settings (QUIN_MAX_QUERY_CHARS) or on the caller (evaluation pages deeper). */
export interface SearchLimits {
  /** Longest query in characters (QUIN_MAX_QUERY_CHARS). */
  maxQueryChars: number;
  /** Largest page size. */
  maxK: number;
}

/** What the API, the web pages and the CLI accept (the evaluation widens maxK for its depth-1000 runs). */
export const PUBLIC_LIMITS: SearchLimits = { maxQueryChars: 1000, maxK: 100 };
/** Deepest result a request may page to (page · k). */
export const MAX_DEPTH = 5000;
export const MAX_HALF_LIFE_DAYS = 36_500;

/** A YYYY-MM-DD day or an ISO instant (with offset); a Date becomes its ISO text. */
const dateField = z.preprocess(
  (v) => (v instanceof Date ? (Number.isFinite(v.getTime()) ? v.toISOString() : 'invalid date') : v === '' || v === null ? undefined : v),
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: 'is not a date: use YYYY-MM-DD or an ISO time such as 2024-05-01T12:00:00Z',
  }),
);

/** A number from text or a number ("" = absent). */
function numberField(schema: z.ZodNumber) {
  return z.preprocess((v) => (v === '' || v === null ? undefined : typeof v === 'string' && v.trim() !== '' ? Number(v) : v), schema);
}

/** `true/false/1/0` as text, or a boolean. */
const boolField = z.preprocess(
  (v) =>
    typeof v === 'string' ? (({ true: true, '1': true, false: false, '0': false } as Record<string, boolean>)[v.toLowerCase()] ?? v) : v,
  z.boolean(),
);

/** `off` in a URL or JSON (null from code) turns the decay off; else a positive number of days. */
const halfLifeField = z.preprocess(
  (v) => {
    if (v === null || (typeof v === 'string' && v.trim().toLowerCase() === 'off')) return 'off';
    if (v === '') return undefined;
    return typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  },
  z.union([z.literal('off'), z.number().gt(0, 'must be more than 0 days').max(MAX_HALF_LIFE_DAYS)], {
    error: 'must be a number of days or `off`',
  }),
);

/** `sources=a&sources=b` or `sources=a,b`; names trimmed, empty ones and repeats dropped. */
const sourcesField = z.preprocess(
  (v) => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' && !Array.isArray(v)) return v;
    const names = (Array.isArray(v) ? v : [v])
      .flatMap((s) => (typeof s === 'string' ? s.split(',') : [s]))
      .map((s) => (typeof s === 'string' ? s.trim() : s));
    return [...new Set(names.filter((s) => s !== ''))];
  },
  z.array(z.string().max(200)).max(50),
);

/** Largest rerank depth a request may ask for (the reranker's own depth caps it anyway). */
export const MAX_RERANK_DEPTH = 200;

/** Most articles one request may leave out. */
export const MAX_EXCLUDED = 100;

/** `exclude=3&exclude=7` or `exclude=3,7` (or numbers): article ids, repeats dropped. */
const articleIdsField = z.preprocess(
  (v) => {
    if (v === undefined || v === null || v === '') return undefined;
    const items = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]));
    const ids = items.map((x) => (typeof x === 'string' ? (x.trim() === '' ? null : Number(x.trim())) : x)).filter((x) => x !== null);
    return [...new Set(ids)];
  },
  z.array(z.number({ error: 'must be article ids (whole numbers)' }).int().min(1)).max(MAX_EXCLUDED),
);

/**
 * The request's fields without the check across fields (page · k), for the contracts that take a part
 * of the search's parameters (export, follow, stories, fact-checks): zod refuses pick/omit on a refined
 * object, so they pick from these fields and add `withinDepth` back when they keep paging.
 */
export function searchRequestFields(limits: SearchLimits = PUBLIC_LIMITS) {
  const maxPage = Math.max(1, Math.floor(MAX_DEPTH / 10));
  return z.object({
    q: z
      .string({ error: 'the query must be text' })
      .trim()
      .min(1, 'the query is empty: type a claim or a question')
      .max(limits.maxQueryChars, `the query is longer than ${limits.maxQueryChars} characters`)
      .describe('The claim or question.'),
    k: numberField(z.number().int().min(1).max(limits.maxK)).default(10).describe('Results per page.'),
    page: numberField(z.number().int().min(1).max(maxPage)).default(1).describe(`1-based page (page · k at most ${MAX_DEPTH}).`),
    halfLifeDays: halfLifeField
      .optional()
      .describe('Half-life of the time decay in days, or `off`. Default: the server setting (QUIN_HALF_LIFE_DAYS).'),
    asOf: dateField
      .optional()
      .describe(
        '"Now" for the time decay and maxAgeDays (reproducible results), and the archive as it was that day: nothing published after it is searched (a bare date means the end of that day; undated text is left out, as under any date bound). Default: the current time, no bound.',
      ),
    from: dateField.optional().describe('Earliest publication date (inclusive).'),
    to: dateField.optional().describe('Latest publication date (inclusive; a bare date means the end of that day).'),
    maxAgeDays: numberField(z.number().min(0).max(MAX_HALF_LIFE_DAYS))
      .optional()
      .describe('Only articles at most this many days older than asOf.'),
    sources: sourcesField.optional().describe('Only these sources (repeat the parameter or separate with commas).'),
    exclude: articleIdsField
      .optional()
      .describe(
        `Leave out these articles (their \`articleId\`, repeat the parameter or separate with commas; at most ${MAX_EXCLUDED}): the article being checked is no evidence for itself.`,
      ),
    sort: z.enum(['relevance', 'newest']).default('relevance').describe('Time-aware relevance, or newest first.'),
    verdict: boolField.optional().describe('Compute the verdict for claims (default true when a model is configured).'),
    coverage: boolField.optional().describe('Also return the matching articles per week.'),
    perArticle: numberField(z.number().int().min(0).max(1000))
      .optional()
      .describe('Results per article (0 = no de-duplication). Default: 1.'),
    mode: z.enum(['hybrid', 'bm25', 'dense']).optional().describe('Retrieval: both indexes (default) or one.'),
    rerank: boolField.optional().describe('Use the reranker when one is configured (default true).'),
    rerankDepth: numberField(z.number().int().min(1).max(MAX_RERANK_DEPTH))
      .optional()
      .describe('Candidates the reranker reads, at most its configured depth (default: its depth). Fewer is faster.'),
    evidenceTop: numberField(z.number().int().min(0).max(limits.maxK))
      .optional()
      .describe('How many results of the page get evidence sentences (default: all).'),
  });
}

/** The depth check of a paged request: page · k at most MAX_DEPTH. */
export function withinDepth(r: { page: number; k: number }, ctx: z.RefinementCtx): void {
  if (r.page * r.k > MAX_DEPTH)
    ctx.addIssue({ code: 'custom', path: ['page'], message: `page ${r.page} of ${r.k} results goes deeper than result ${MAX_DEPTH}` });
}

export function searchRequestSchema(limits: SearchLimits = PUBLIC_LIMITS) {
  return searchRequestFields(limits).superRefine(withinDepth);
}

export type SearchRequestSchema = ReturnType<typeof searchRequestSchema>;
/** What a caller may pass to search() (query-string or programmatic form). */
export type SearchRequest = z.input<SearchRequestSchema>;
/** A validated request: numbers are numbers, dates are ISO/YYYY-MM-DD text, defaults filled in. */
export type SearchParams = z.output<SearchRequestSchema>;

// ---------------------------------------------------------------------------------------------
// The response
// ---------------------------------------------------------------------------------------------

export const evidenceSentenceSchema = z.object({
  text: z.string(),
  start: z.number().int().describe('Character offset in the result’s `text`.'),
  end: z.number().int(),
  score: z.number(),
});

export const scoreBreakdownSchema = z
  .object({
    bm25: z.number().nullable(),
    bm25Rank: z.number().int().nullable(),
    dense: z.number().nullable(),
    denseRank: z.number().int().nullable(),
    fused: z.number().describe('Relevance after fusing the BM25 and dense runs.'),
    rerank: z.number().nullable().describe('The reranker model’s own score (null: not reranked).'),
    relevance: z
      .number()
      .optional()
      .describe('The relevance the time decay applies to: `fused`, or the reranker’s mix of its score with `fused`.'),
    recency: z.number().describe('Time-decay factor 2^(−age/h); 1 when the decay is off.'),
    recencyBasis: z
      .enum(['published', 'undated', 'off'])
      .optional()
      .describe(
        '`published`: the age is the publication date’s; `undated`: no usable date, so the age is assumed (`assumedAgeDays`); `off`: no decay.',
      ),
    assumedAgeDays: z
      .number()
      .nullable()
      .optional()
      .describe(
        'For undated text: the age assumed for the decay (the median age of the 10 dated matches with the best decayed scores — those it competes with for the first page — at least the time since it entered the archive).',
      ),
    final: z.number().describe('relevance × recency.'),
  })
  .describe('How the final score came about ("why this result"): final = relevance × recency. search() always fills every field.');

export const duplicateSchema = z.object({
  snippetId: z.number().int(),
  articleId: z.number().int(),
  title: z.string(),
  url: z.string(),
  source: z.string(),
  publishedAt: z.string().nullable(),
});

export const searchResultSchema = z.object({
  snippetId: z.number().int(),
  articleId: z.number().int(),
  position: z.number().int().describe('Window number within the article.'),
  sentenceStart: z.number().int(),
  sentenceEnd: z.number().int(),
  title: z.string(),
  url: z.string(),
  source: z.string(),
  publishedAt: z.string().nullable(),
  text: z.string(),
  evidence: z.array(evidenceSentenceSchema),
  score: z.number(),
  scores: scoreBreakdownSchema,
  duplicates: z
    .array(duplicateSchema)
    .optional()
    .describe('The same story elsewhere (same or nearly the same text under another URL), collapsed into this result.'),
});

export const stanceSchema = z.enum(['supports', 'refutes', 'neutral']);

export const detailKindSchema = z.enum(['name', 'place', 'number', 'date', 'direction', 'negation', 'roles']);

export const detailCheckSchema = z.object({
  kind: detailKindSchema,
  status: z.enum(['confirmed', 'contradicted', 'unmentioned']),
  claim: z.string().describe("The claim's words ('' for what the sentence adds against it: roles swapped, a negation)."),
  evidence: z.string().optional().describe("The sentence's words for it: the same value, or the other one."),
});

export const stanceEvidenceSchema = z.object({
  snippetId: z.number().int(),
  sentence: z.string(),
  title: z.string(),
  url: z.string(),
  source: z.string(),
  publishedAt: z.string().nullable(),
  stance: stanceSchema,
  confidence: z.number().describe('Probability of the stance.'),
  weight: z.number().describe('Relevance × recency × confidence weight used in the aggregate.'),
  reason: z.string().optional().describe('Why the sentence reads that way, in a few words.'),
  onTopic: z.boolean().optional().describe('Whether the sentence is about the claim at all (only such sentences take a stance).'),
  details: z
    .array(detailCheckSchema)
    .optional()
    .describe("What the sentence says of each of the claim's details: confirmed, contradicted (with its value) or not mentioned."),
});

export const verdictLabelSchema = z.enum(['SUPPORTED', 'REFUTED', 'MIXED', 'NOT_ENOUGH_EVIDENCE']);

export const verdictSchema = z.object({
  label: verdictLabelSchema,
  confidence: z.number(),
  evidence: z.object({
    supports: z.array(stanceEvidenceSchema),
    refutes: z.array(stanceEvidenceSchema),
    neutral: z.array(stanceEvidenceSchema),
  }),
  model: z.string(),
  reason: z.string().optional().describe('Why the verdict abstained, when it did.'),
  details: z
    .array(z.object({ kind: detailKindSchema, text: z.string() }))
    .optional()
    .describe("The claim's checkable details: who, where, how much, when, which way, whether negated."),
  probabilities: z.record(z.string(), z.number()).optional().describe('Calibrated probability of each label.'),
});

export const weekCountSchema = z.object({
  week: z.string().describe('Monday of the ISO week, YYYY-MM-DD (UTC).'),
  articles: z.number().int(),
  snippets: z.number().int(),
});

export const queryKindSchema = z
  .enum(['claim', 'question', 'keywords'])
  .describe('A statement (gets a verdict), a question, or keywords (evidence only).');

export const verdictStatusSchema = z
  .enum(['ok', 'question', 'keywords', 'no_match', 'no_model', 'disabled', 'unavailable'])
  .describe(
    'Why there is a verdict or not: only claims with a real match get one, when an NLI model is configured and the request did not switch it off; `unavailable`: the configured NLI model cannot serve (`models.unavailable.nli` says why).',
  );

export const searchResponseSchema = z.object({
  query: z.string(),
  kind: queryKindSchema,
  page: z.number().int(),
  k: z.number().int(),
  total: z
    .number()
    .int()
    .describe(
      'Passages that match the query and the filters (near-duplicate stories counted once), before paging; never more than the same search finds without its date and source filters.',
    ),
  results: z.array(searchResultSchema),
  verdict: verdictSchema.nullable(),
  verdictStatus: verdictStatusSchema,
  halfLifeDays: z.number().nullable(),
  asOf: z.string(),
  timingsMs: z.record(z.string(), z.number()),
  models: z.object({
    encoder: z.string(),
    reranker: z.string().nullable(),
    nli: z.string().nullable(),
    bm25: z.string(),
    dense: z.boolean().describe('Whether the dense index served this search.'),
    unavailable: z
      .object({ reranker: z.string().optional(), nli: z.string().optional() })
      .optional()
      .describe(
        'Configured models that could not serve this search, each with the model and the problem in one line (the search went on without them).',
      ),
  }),
  coverage: z.array(weekCountSchema).optional().describe('Matching articles per week (on request).'),
  coverageUndated: z.number().int().optional().describe('Matching articles left out of `coverage` because they have no date.'),
  warnings: z.array(z.string()).optional().describe('Degraded answers say why (e.g. "dense index not built yet: BM25 only").'),
});

export type EvidenceSentence = z.infer<typeof evidenceSentenceSchema>;
export type ScoreBreakdown = z.infer<typeof scoreBreakdownSchema>;
export type Duplicate = z.infer<typeof duplicateSchema>;
export type SearchResult = z.infer<typeof searchResultSchema>;
export type Stance = z.infer<typeof stanceSchema>;
export type StanceEvidence = z.infer<typeof stanceEvidenceSchema>;
export type DetailCheck = z.infer<typeof detailCheckSchema>;
export type VerdictLabel = z.infer<typeof verdictLabelSchema>;
export type Verdict = z.infer<typeof verdictSchema>;
export type WeekCount = z.infer<typeof weekCountSchema>;
export type QueryKind = z.infer<typeof queryKindSchema>;
export type SearchResponse = z.infer<typeof searchResponseSchema>;
