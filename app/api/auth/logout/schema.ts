/** POST /api/auth/logout: ends the admin session (revoked on the server, cookie cleared), or every session. */
import { z } from 'zod';

export const logoutBody = z.object({
  everywhere: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'on'])])
    .optional()
    .transform((v) => v === true || v === 'true' || v === '1' || v === 'on')
    .describe('Also end every other session of this admin (other browsers and devices).'),
});

export const logoutResponse = z.object({
  ok: z.literal(true),
  ended: z.number().int().describe('Sessions ended (1, or every live session with everywhere=true).'),
});
