import { searchParamsObject, jsonResponse } from '../../../lib/web/http';
import { api, clientOf } from '../../_lib/api';
import { checkSearchRate, parseSearch, runSearch } from '../../_lib/search';

export const dynamic = 'force-dynamic';

/** GET /api/search?q=…: ranked snippets with evidence, and the verdict for claims. */
export const GET = api(async (req) => {
  await checkSearchRate(clientOf(req));
  const query = await parseSearch(searchParamsObject(new URL(req.url).searchParams));
  return jsonResponse(await runSearch(query));
});
