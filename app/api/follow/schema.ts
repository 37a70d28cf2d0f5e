/** GET /api/follow: any search as an Atom feed of new matching coverage (the search's filters; paging, sort and asOf do not apply). */
import { type z } from 'zod';
import { searchQuery } from '../search/schema';

export const followQuery = searchQuery.pick({ q: true, halfLifeDays: true, from: true, to: true, maxAgeDays: true, sources: true });
export type FollowQuery = z.output<typeof followQuery>;
