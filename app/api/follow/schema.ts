/**
 * GET /api/follow: any search as an Atom feed of new matching coverage (the search's filters; paging
 * and sort do not apply; asOf bounds the publication date like `to`, recency counts from each poll).
 */
import { type z } from 'zod';
import { PUBLIC_LIMITS, type SearchLimits } from '../../../ranking/schema';
import { searchFieldsFor } from '../search/schema';

/** The search's filters at these limits (the server's QUIN_MAX_QUERY_CHARS). */
export const followQueryFor = (limits: SearchLimits) =>
  searchFieldsFor(limits).pick({ q: true, halfLifeDays: true, asOf: true, from: true, to: true, maxAgeDays: true, sources: true });
export const followQuery = followQueryFor(PUBLIC_LIMITS);
export type FollowQuery = z.output<typeof followQuery>;
