import { jsonResponse } from '../../../lib/web/http';
import { api, clientOf, parseQuery } from '../../_lib/api';
import { factChecksFor } from '../../_lib/fact-checks';
import { checkSearchRate } from '../../_lib/search';
import { factChecksQuery } from './schema';

export const dynamic = 'force-dynamic';

/** GET /api/fact-checks?q=…: the published fact-checks that rated this claim. */
export const GET = api(async (req) => {
  await checkSearchRate(clientOf(req));
  const { q } = parseQuery(req, factChecksQuery);
  return jsonResponse({ query: q, factChecks: await factChecksFor(q) });
});
