import { jsonResponse } from '../../../lib/web/http';
import { api, clientOf, parseQuery } from '../../_lib/api';
import { checkSearchRate } from '../../_lib/search';
import { loadStories } from '../../_lib/stories';
import { storiesQuery } from './schema';

export const dynamic = 'force-dynamic';

/** GET /api/stories?q=…: the matching coverage grouped into stories, with the coverage over time split by source. */
export const GET = api(async (req) => {
  await checkSearchRate(clientOf(req));
  return jsonResponse(await loadStories(parseQuery(req, storiesQuery)));
});
