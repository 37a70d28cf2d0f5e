/** GET /api/openapi.json takes no parameters. */
import { z } from 'zod';

export const openApiQuery = z.object({});
