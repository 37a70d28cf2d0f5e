/** POST /admin/feeds: the dashboard's feed forms (form-encoded, CSRF field), answered with a 303 back to the dashboard. */
import { z } from 'zod';
import { addFeedBody } from '../../api/feeds/schema';

const id = z.coerce.number().int().positive();
const csrf = z.string();

export const feedForm = z.discriminatedUnion('op', [
  addFeedBody.extend({ op: z.literal('add'), csrf }),
  z.object({ op: z.enum(['pause', 'resume', 'refresh', 'remove']), id, csrf }),
  z.object({
    op: z.literal('edit'),
    id,
    csrf,
    title: z.string().max(300, 'the title is longer than 300 characters'),
    intervalMinutes: z.coerce
      .number()
      .int('the interval is a whole number of minutes')
      .min(1, 'check at most once a minute')
      .max(7 * 24 * 60, 'check at least once a week'),
  }),
  z.object({ op: z.enum(['refresh-all', 'seed', 'import']), csrf }),
]);
export type FeedForm = z.output<typeof feedForm>;
