import { searchParamsObject } from '../../../lib/web/http';
import { api, clientOf } from '../../_lib/api';
import { followAtom, pollFollow } from '../../_lib/follow';
import { checkSearchRate, parseSearchPart } from '../../_lib/search';
import { followQueryFor } from './schema';

export const dynamic = 'force-dynamic';

/** GET /api/follow?q=…: the search as an Atom feed of new matching coverage, each entry with the verdict's state when it appeared. */
export const GET = api(async (req) => {
  await checkSearchRate(clientOf(req));
  const url = new URL(req.url);
  const poll = await pollFollow(await parseSearchPart(searchParamsObject(url.searchParams), followQueryFor));
  return new Response(followAtom(poll, url.origin), {
    headers: { 'content-type': 'application/atom+xml; charset=utf-8', 'cache-control': 'no-cache' },
  });
});
