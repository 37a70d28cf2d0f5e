import { api, clientOf, parseQuery } from '../../_lib/api';
import { exportSearch } from '../../_lib/export-search';
import { checkSearchRate } from '../../_lib/search';
import { exportQuery } from './schema';

export const dynamic = 'force-dynamic';

/** GET /api/export?q=…&format=csv|json: the search's results (same parameters, same page) with their provenance, as a download. */
export const GET = api(async (req) => {
  await checkSearchRate(clientOf(req));
  return exportSearch(parseQuery(req, exportQuery), new URL(req.url).origin);
});
