import { jsonResponse } from '../../../lib/web/http';
import { api, parseQuery } from '../../_lib/api';
import { healthReport } from '../../_lib/health';
import { healthQuery } from './schema';

export const dynamic = 'force-dynamic';

/** GET /api/health: 200 when ready (database and indexes usable), 503 otherwise; `?probe=live` always 200. */
export const GET = api(async (req) => {
  const { probe } = parseQuery(req, healthQuery);
  if (probe === 'live') return jsonResponse({ live: true, uptimeSeconds: Math.round(process.uptime()) });
  const report = await healthReport();
  return jsonResponse(report, { status: report.ready ? 200 : 503 });
});
