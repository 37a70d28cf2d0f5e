import { jsonResponse } from '../../../lib/web/http';
import { api, clientOf, parseQuery } from '../../_lib/api';
import { checkSearchRate, runSearch } from '../../_lib/search';
import { searchQuery } from './schema';

export const dynamic = 'force-dynamic';

/** GET /api/search?q=…: ranked snippets with evidence, and the verdict for claims. */
export const GET = api(async (req) => {
  await checkSearchRate(clientOf(req));
  const query = parseQuery(req, searchQuery);
  return jsonResponse(await runSearch(query));
});
