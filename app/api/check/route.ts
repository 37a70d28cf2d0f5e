import { api, clientOf, parseQuery } from '../../_lib/api';
import { chargeCheck, readCheckBody, respondWithCheck } from '../../_lib/check';
import { checkQuery } from './schema';

export const dynamic = 'force-dynamic';

/** POST /api/check?format=ndjson|json|csv: an article (`url`) or a text (`text`) checked claim by claim. */
export const POST = api(async (req) => {
  const { format } = parseQuery(req, checkQuery);
  const params = await readCheckBody(req);
  await chargeCheck(clientOf(req));
  return respondWithCheck(params, format, req.signal);
});
