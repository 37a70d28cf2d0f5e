/** GET /api/stories: the coverage matching a search, grouped into stories. */
import { z } from 'zod';
import type { StoriesResult } from '../../_lib/stories';
import { PUBLIC_LIMITS, queryKindSchema, type SearchLimits } from '../../../ranking/schema';
import { searchFieldsFor } from '../search/schema';

/** The search's filters at these limits (the server's QUIN_MAX_QUERY_CHARS). */
export const storiesQueryFor = (limits: SearchLimits) =>
  searchFieldsFor(limits).pick({ q: true, halfLifeDays: true, asOf: true, from: true, to: true, maxAgeDays: true, sources: true });
export const storiesQuery = storiesQueryFor(PUBLIC_LIMITS);
export type StoriesQuery = z.output<typeof storiesQuery>;

const storyArticle = z.object({
  articleId: z.number().int(),
  title: z.string(),
  url: z.string(),
  source: z.string(),
  publishedAt: z.string().nullable(),
  score: z.number(),
});

export const storiesResponse = z.object({
  query: z.string(),
  kind: queryKindSchema,
  asOf: z.string(),
  total: z.number().int().describe('Passages matching the search.'),
  articles: z.number().int().describe('The most relevant matching articles that were grouped (at most 100).'),
  stories: z.array(
    z.object({
      id: z.number().int(),
      headline: z.string(),
      articles: z.array(storyArticle).describe('Dated reports first, oldest first.'),
      first: storyArticle.describe('First reported by: the earliest dated report.'),
      latest: storyArticle,
      sources: z.array(z.object({ name: z.string(), articles: z.number().int() })),
      timeline: z.array(z.object({ date: z.string(), articles: z.number().int() })),
      timelineUnit: z.enum(['day', 'week']),
      score: z.number(),
    }),
  ),
  coverage: z
    .object({
      unit: z.enum(['week', 'month']),
      sources: z.array(z.string()).describe('The sources with the most articles, in order; the rest are counted as "Other".'),
      points: z.array(
        z.object({ date: z.string(), counts: z.array(z.number().int()).describe('Articles per source, in `sources` order, then Other.') }),
      ),
    })
    .describe('Matching articles over time, split by source.'),
});

// Compile-time check: every StoriesResult fits this schema.
export function asStoriesJson(v: StoriesResult): z.output<typeof storiesResponse> {
  return v;
}
