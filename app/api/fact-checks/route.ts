import { jsonResponse, searchParamsObject } from '../../../lib/web/http';
import { api, clientOf } from '../../_lib/api';
import { factChecksFor } from '../../_lib/fact-checks';
import { checkSearchRate, parseSearchPart } from '../../_lib/search';
import { factChecksQueryFor } from './schema';

export const dynamic = 'force-dynamic';

/** GET /api/fact-checks?q=…: the published fact-checks that rated this claim. */
export const GET = api(async (req) => {
  await checkSearchRate(clientOf(req));
  const { q, asOf } = await parseSearchPart(searchParamsObject(new URL(req.url).searchParams), factChecksQueryFor);
  return jsonResponse({ query: q, factChecks: await factChecksFor(q, asOf) });
});
