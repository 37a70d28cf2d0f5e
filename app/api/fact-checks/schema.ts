/** GET /api/fact-checks: published fact-checks (schema.org ClaimReview found on crawled or imported pages) that rated the query's claim. */
import { z } from 'zod';
import type { FactCheck } from '../../_lib/fact-checks';
import { PUBLIC_LIMITS, type SearchLimits } from '../../../ranking/schema';
import { searchFieldsFor } from '../search/schema';

/** The search's query text at these limits (the server's QUIN_MAX_QUERY_CHARS), and its "as of" day (only reviews published by then). */
export const factChecksQueryFor = (limits: SearchLimits) => searchFieldsFor(limits).pick({ q: true, asOf: true });
export const factChecksQuery = factChecksQueryFor(PUBLIC_LIMITS);

export const factCheck = z.object({
  claim: z.string().describe('The claim as the fact-checker worded it (claimReviewed).'),
  rating: z.string().nullable().describe('The rating in words (reviewRating.alternateName).'),
  ratingValue: z.number().nullable(),
  bestRating: z.number().nullable(),
  worstRating: z.number().nullable(),
  reviewer: z.string().nullable().describe('The fact-checking organisation.'),
  reviewerUrl: z.string().nullable(),
  reviewUrl: z.string().describe('The fact-check itself.'),
  claimant: z.string().nullable().describe('Who made the claim.'),
  appearanceUrl: z.string().nullable().describe('Where the claim appeared (first).'),
  reviewedAt: z.string().nullable(),
  match: z.object({
    score: z.number(),
    words: z.number().describe('Share of content words in common.'),
    dense: z.number().nullable().describe('Sentence-vector cosine.'),
  }),
});

export const factChecksResponse = z.object({ query: z.string(), factChecks: z.array(factCheck) });

// Compile-time check: every FactCheck fits this schema.
export function asFactCheckJson(v: FactCheck): z.output<typeof factCheck> {
  return v;
}
