import { buildOpenApiDocument } from '../../../lib/web/openapi';
import { jsonResponse } from '../../../lib/web/http';
import { api } from '../../_lib/api';
import { apiOperations } from '../../_lib/api-operations';
import { searchLimits } from '../../_lib/search';

/** GET /api/openapi.json: generated from the zod schemas the handlers validate with, at this server's limits. */
export const GET = api(async () =>
  jsonResponse(
    buildOpenApiDocument(apiOperations(await searchLimits()), {
      title: 'Quin news API',
      version: '1',
      description: 'Search recent news for evidence on claims and questions; manage the crawled feeds (admin).',
    }),
    { headers: { 'cache-control': 'public, max-age=300' } },
  ),
);
