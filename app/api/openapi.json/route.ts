import { buildOpenApiDocument } from '../../../lib/web/openapi';
import { jsonResponse } from '../../../lib/web/http';
import { api } from '../../_lib/api';
import { API_OPERATIONS } from '../../_lib/api-operations';

/** GET /api/openapi.json: generated from the zod schemas the handlers validate with. */
export const GET = api(async () =>
  jsonResponse(
    buildOpenApiDocument(API_OPERATIONS, {
      title: 'Quin news API',
      version: '1',
      description: 'Search recent news for evidence on claims and questions; manage the crawled feeds (admin).',
    }),
    { headers: { 'cache-control': 'public, max-age=300' } },
  ),
);
