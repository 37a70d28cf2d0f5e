import { searchParamsObject } from '../../../lib/web/http';
import { api, clientOf } from '../../_lib/api';
import { exportSearch } from '../../_lib/export-search';
import { checkSearchRate, parseSearchPart } from '../../_lib/search';
import { exportQueryFor } from './schema';

export const dynamic = 'force-dynamic';

/** GET /api/export?q=…&format=csv|json: the search's results (same parameters, same page) with their provenance, as a download. */
export const GET = api(async (req) => {
  await checkSearchRate(clientOf(req));
  const url = new URL(req.url);
  return exportSearch(await parseSearchPart(searchParamsObject(url.searchParams), exportQueryFor), url.origin);
});
