import { searchParamsObject } from '../../../lib/web/http';
import { api, clientOf } from '../../_lib/api';
import { followAtom, pollFollow } from '../../_lib/follow';
import { checkSearchRate, parseSearchPart } from '../../_lib/search';
import { followQueryFor } from './schema';

export const dynamic = 'force-dynamic';

/**
 * GET /api/follow?q=…: the search as an Atom feed of new matching coverage, newest first, each entry
 * with the verdict of the moment it appeared where the verdict committed. One follow per normalised
 * query and filters; a client with FOLLOWS_PER_CLIENT follows gets 429 for a new one.
 */
export const GET = api(async (req) => {
  await checkSearchRate(clientOf(req));
  const url = new URL(req.url);
  const poll = await pollFollow(await parseSearchPart(searchParamsObject(url.searchParams), followQueryFor), clientOf(req));
  return new Response(followAtom(poll, url.origin), {
    headers: { 'content-type': 'application/atom+xml; charset=utf-8', 'cache-control': 'no-cache' },
  });
});
