import { metricsText } from '../_lib/metrics';
import { api } from '../_lib/api';

export const dynamic = 'force-dynamic';

/** GET /metrics: Prometheus text exposition. */
export const GET = api(async () => {
  return new Response(await metricsText(), { headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' } });
});
