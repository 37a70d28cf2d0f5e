import { jsonResponse, searchParamsObject } from '../../../lib/web/http';
import { api, clientOf } from '../../_lib/api';
import { checkSearchRate, parseSearchPart } from '../../_lib/search';
import { loadStories } from '../../_lib/stories';
import { storiesQueryFor } from './schema';

export const dynamic = 'force-dynamic';

/** GET /api/stories?q=…: the matching coverage grouped into stories, with the coverage over time split by source. */
export const GET = api(async (req) => {
  await checkSearchRate(clientOf(req));
  return jsonResponse(await loadStories(await parseSearchPart(searchParamsObject(new URL(req.url).searchParams), storiesQueryFor)));
});
