/**
 * The article check's contract, defined once as zod schemas (the TypeScript types are inferred from
 * them): the request the API, the CLI and the page send, the events a check streams as it goes, and
 * the report they add up to. The OpenAPI document is generated from these. Imports nothing but zod
 * and the search contract: the page's client bundle reads it too.
 */
import { z } from 'zod';
import { stanceEvidenceSchema, verdictLabelSchema, verdictStatusSchema } from '../ranking/schema';

import { MAX_CLAIMS, MAX_TEXT_CHARS, MAX_TITLE_CHARS, MAX_URL_CHARS } from './limits';

export { MAX_CLAIMS, MAX_TEXT_CHARS, MAX_TITLE_CHARS, MAX_URL_CHARS };

const day = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: 'is not a date: use YYYY-MM-DD or an ISO time such as 2024-05-01T12:00:00Z',
  }),
);
const flag = z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean());

export const checkRequestSchema = z
  .object({
    url: z
      .string({ error: 'the URL must be text' })
      .trim()
      .min(1, 'the URL is empty')
      .max(MAX_URL_CHARS, `the URL is longer than ${MAX_URL_CHARS} characters`)
      .optional()
      .describe('The article to fetch and check (http or https; private addresses are refused). Give `url` or `text`.'),
    text: z
      .string({ error: 'the text must be text' })
      .optional()
      .describe(`The article's text to check (at most ${MAX_TEXT_CHARS.toLocaleString('en')} characters). Give \`url\` or \`text\`.`),
    title: z.string().trim().max(MAX_TITLE_CHARS).optional().describe('The title of a pasted text (it helps resolve "the company").'),
    publishedAt: day.optional().describe('When a pasted text was published: coverage after that day is left out unless includeLater.'),
    asOf: day
      .optional()
      .describe('Check against the coverage as it was on this day (default: the article’s publication day, when it has one).'),
    includeLater: flag.optional().describe('Also use coverage published after the article (default false).'),
    maxClaims: z.coerce.number().int().min(1).max(MAX_CLAIMS).optional().describe(`Claims to check (default and most ${MAX_CLAIMS}).`),
  })
  .superRefine((r, ctx) => {
    const hasText = r.text !== undefined && r.text.trim() !== '';
    if (!r.url && !hasText) ctx.addIssue({ code: 'custom', path: ['url'], message: 'give a URL or a text to check' });
    if (r.url && hasText) ctx.addIssue({ code: 'custom', path: ['text'], message: 'give a URL or a text, not both' });
  });

export type CheckRequest = z.input<typeof checkRequestSchema>;
export type CheckParams = z.output<typeof checkRequestSchema>;

export const skipReasonSchema = z.enum(['question', 'opinion', 'feeling', 'boilerplate', 'fragment', 'no_detail', 'over_limit']);

export const articleSchema = z.object({
  url: z.string().nullable().describe('The address asked for (null: pasted text).'),
  finalUrl: z.string().nullable().describe('After redirects.'),
  canonicalUrl: z.string().nullable(),
  title: z.string().nullable(),
  siteName: z.string().nullable(),
  publishedAt: z.string().nullable(),
  publishedFrom: z.enum(['meta', 'jsonld', 'given']).nullable().describe('Where the date came from.'),
  characters: z.number().int(),
  truncated: z.boolean().describe('The page’s text was longer than the limit: its beginning was checked.'),
});

export const sentenceSchema = z.object({
  index: z.number().int(),
  paragraph: z.number().int(),
  text: z.string(),
  claim: z.number().int().nullable().describe('The claim this sentence became (null: left out).'),
  skipped: skipReasonSchema.nullable().describe('Why it was left out.'),
});

export const resolutionSchema = z.object({ from: z.string(), to: z.string() });

export const claimSchema = z.object({
  id: z.number().int(),
  sentence: z.number().int(),
  text: z.string().describe('The sentence as the article has it.'),
  standalone: z.string().describe('The sentence standing alone: its opening reference resolved ("It" → "AOL").'),
  resolutions: z.array(resolutionSchema),
  parts: z.array(z.string()).describe('The atomic parts of a compound claim (one: not compound).'),
  details: z.array(z.object({ kind: z.enum(['name', 'number', 'date', 'place']), text: z.string() })),
});

export const sourceSchema = z.object({
  title: z.string(),
  url: z.string(),
  source: z.string(),
  publishedAt: z.string().nullable(),
  sentence: z.string().nullable().describe('Its best evidence sentence.'),
});

export const partResultSchema = z.object({
  text: z.string(),
  label: verdictLabelSchema,
  status: z
    .union([verdictStatusSchema, z.literal('error')])
    .describe('Why there is a verdict or not (the search’s verdictStatus; `error`: the search failed, see reason).'),
  confidence: z.number(),
  reason: z.string().nullable().describe('Why no verdict was given, when none was.'),
  decidedBy: stanceEvidenceSchema.nullable().describe('The sentence that decides the verdict, with its reason (the detail).'),
  evidence: z.object({ supports: z.array(stanceEvidenceSchema), refutes: z.array(stanceEvidenceSchema) }),
  sources: z.array(sourceSchema).describe('The best matching coverage.'),
  ms: z.number(),
});

export const outcomeSchema = z.enum(['supported', 'refuted', 'not_settled']);

export const claimResultSchema = claimSchema.extend({
  label: verdictLabelSchema.describe('Any part refuted → REFUTED; every part supported → SUPPORTED; else MIXED or NOT_ENOUGH_EVIDENCE.'),
  outcome: outcomeSchema,
  results: z.array(partResultSchema).describe('One per part, in order.'),
  decidedBy: stanceEvidenceSchema.nullable(),
  ms: z.number(),
});

export const summarySchema = z.object({
  claims: z.number().int(),
  parts: z.number().int(),
  supported: z.number().int(),
  refuted: z.number().int(),
  notSettled: z.number().int(),
  sentences: z.number().int(),
  skipped: z.record(z.string(), z.number().int()).describe('Left-out sentences by reason.'),
  seconds: z.number(),
  firstVerdictSeconds: z.number().nullable(),
});

export const checkStartSchema = z.object({
  type: z.literal('article'),
  article: articleSchema,
  asOf: z.string().nullable().describe('The coverage as it was on this day (null: all of it).'),
  excludedArticles: z.array(z.number().int()).describe('Stored copies of the checked article, left out of the evidence.'),
  sentences: z.array(sentenceSchema),
  claims: z.array(claimSchema),
  warnings: z.array(z.string()),
});

export const checkEventSchema = z.discriminatedUnion('type', [
  checkStartSchema,
  z.object({ type: z.literal('claim'), claim: claimResultSchema }),
  z.object({ type: z.literal('done'), summary: summarySchema }),
  z.object({ type: z.literal('error'), error: z.object({ code: z.string(), message: z.string() }) }),
]);

export const checkReportSchema = checkStartSchema.omit({ type: true, claims: true }).extend({
  checkedAt: z.string(),
  request: z.object({ url: z.string().nullable(), includeLater: z.boolean(), asOf: z.string().nullable() }),
  claims: z.array(claimResultSchema),
  summary: summarySchema,
});

export type Article = z.infer<typeof articleSchema>;
export type SentenceView = z.infer<typeof sentenceSchema>;
export type ClaimView = z.infer<typeof claimSchema>;
export type PartResult = z.infer<typeof partResultSchema>;
export type ClaimResult = z.infer<typeof claimResultSchema>;
export type Outcome = z.infer<typeof outcomeSchema>;
export type CheckSummary = z.infer<typeof summarySchema>;
export type CheckStart = z.infer<typeof checkStartSchema>;
export type CheckEvent = z.infer<typeof checkEventSchema>;
export type CheckReport = z.infer<typeof checkReportSchema>;
export type SourceView = z.infer<typeof sourceSchema>;
