/** GET /api/export: a search's results with their provenance, as CSV or JSON (the search's own parameters, plus format). */
import { z } from 'zod';
import { PUBLIC_LIMITS, queryKindSchema, withinDepth, type SearchLimits } from '../../../ranking/schema';
import { searchFieldsFor } from '../search/schema';

/** The search's parameters at these limits (the server's QUIN_MAX_QUERY_CHARS), less coverage, plus format. */
export const exportQueryFor = (limits: SearchLimits) =>
  searchFieldsFor(limits)
    .omit({ coverage: true })
    .extend({
      format: z.enum(['csv', 'json']).default('csv').describe('csv (RFC 4180, UTF-8 with a byte-order mark, one row per passage) or json.'),
    })
    .superRefine(withinDepth);
export const exportQuery = exportQueryFor(PUBLIC_LIMITS);
export type ExportQuery = z.output<typeof exportQuery>;

const stance = z.enum(['supports', 'refutes', 'neutral']);

export const exportRow = z.object({
  rank: z.number().int(),
  title: z.string(),
  source: z.string(),
  url: z.string(),
  publishedAt: z.string().nullable(),
  publishedAtSource: z
    .string()
    .nullable()
    .describe('Where the date came from: item (the feed), meta or jsonld (the page), first_seen, import, unknown.'),
  fetchedAt: z.string().nullable(),
  textSource: z
    .string()
    .nullable()
    .describe('Where the text came from: readability (the page), item_content or item_description (the feed), import.'),
  feedUrl: z.string().nullable(),
  snippet: z.string(),
  evidence: z.array(z.string()).describe('The evidence sentences highlighted in the snippet.'),
  score: z.number(),
  bm25: z.number().nullable(),
  dense: z.number().nullable(),
  rerank: z.number().nullable(),
  recency: z.number(),
  stance: stance.nullable().describe('What the verdict model read in this passage (null when it did not read it).'),
  stanceConfidence: z.number().nullable(),
  articleId: z.number().int(),
  snippetId: z.number().int(),
});

export const exportResponse = z.object({
  query: z.string(),
  kind: queryKindSchema,
  asOf: z.string(),
  halfLifeDays: z.number().nullable(),
  exportedAt: z.string(),
  page: z.number().int(),
  total: z.number().int(),
  verdict: z.object({ label: z.string(), confidence: z.number(), model: z.string() }).nullable(),
  searchUrl: z.string().describe('The search page these results come from.'),
  results: z.array(exportRow),
});
