import { api, clientOf, parseQuery } from '../../_lib/api';
import { followAtom, pollFollow } from '../../_lib/follow';
import { checkSearchRate } from '../../_lib/search';
import { followQuery } from './schema';

export const dynamic = 'force-dynamic';

/** GET /api/follow?q=…: the search as an Atom feed of new matching coverage, each entry with the verdict's state when it appeared. */
export const GET = api(async (req) => {
  await checkSearchRate(clientOf(req));
  const poll = await pollFollow(parseQuery(req, followQuery));
  return new Response(followAtom(poll, new URL(req.url).origin), {
    headers: { 'content-type': 'application/atom+xml; charset=utf-8', 'cache-control': 'no-cache' },
  });
});
