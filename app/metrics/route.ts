import { metricsText } from '../_lib/metrics';
import { api } from '../_lib/api';

export const dynamic = 'force-dynamic';

/** GET /metrics: Prometheus text exposition (admin families only with `Authorization: Bearer <QUIN_METRICS_TOKEN>`). */
export const GET = api(async (req) => {
  const { text, contentType } = await metricsText(req.headers.get('authorization'));
  return new Response(text, { headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
});
