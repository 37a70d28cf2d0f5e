/** POST /admin/feeds: the dashboard's feed forms (form-encoded, CSRF field), answered with a 303 back to the dashboard. */
import { z } from 'zod';
import { addFeedBody } from '../../api/feeds/schema';

export const feedForm = z.discriminatedUnion('op', [
  addFeedBody.extend({ op: z.literal('add'), csrf: z.string() }),
  z.object({ op: z.enum(['pause', 'resume', 'refresh', 'remove']), id: z.coerce.number().int().positive(), csrf: z.string() }),
]);
