import { jsonResponse } from '../../../lib/web/http';
import { adminSession, api, parseJsonBody, parseQuery } from '../../_lib/api';
import { addCheckedFeed, changeFeed, deleteFeed, listFeeds } from '../../_lib/feed-admin';
import { services } from '../../_lib/services';
import { addFeedBody, deleteFeedQuery, patchFeedBody } from './schema';

export const dynamic = 'force-dynamic';

/** GET /api/feeds (admin): every feed with its crawl health, broken ones first. */
export const GET = api(async (req) => {
  await adminSession(req);
  return jsonResponse({ feeds: await listFeeds(await services()) });
});

/** POST /api/feeds (admin + CSRF): add a feed after fetching it once; 400 with the reason when it does not parse. */
export const POST = api(async (req) => {
  await adminSession(req);
  const body = await parseJsonBody(req, addFeedBody);
  return jsonResponse({ feed: await addCheckedFeed(await services(), body) }, { status: 201 });
});

/** PATCH /api/feeds (admin + CSRF): {id, action: pause|resume|refresh} and/or {id, intervalMinutes}. */
export const PATCH = api(async (req) => {
  await adminSession(req);
  const { id, ...change } = await parseJsonBody(req, patchFeedBody);
  return jsonResponse({ feed: await changeFeed(await services(), id, change) });
});

/** DELETE /api/feeds?id=N (admin + CSRF): remove a feed; its articles stay searchable. */
export const DELETE = api(async (req) => {
  await adminSession(req);
  const { id } = parseQuery(req, deleteFeedQuery);
  return jsonResponse({ removed: await deleteFeed(await services(), id) });
});
