import { createError } from '../../../lib/errors';
import { api } from '../../_lib/api';

export const dynamic = 'force-dynamic';

/** Any method on a path under /api/ that no handler serves: a JSON problem, 404 (schema.ts). */
const notFound = api(async (req) => {
  const { pathname } = new URL(req.url);
  throw createError('NOT_FOUND', `no API endpoint at ${pathname.slice(0, 200)}: the endpoints are listed in /api/openapi.json`);
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
