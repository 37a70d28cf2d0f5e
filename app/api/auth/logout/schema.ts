/** POST /api/auth/logout: ends the admin session (clears the cookie). */
import { z } from 'zod';

export const logoutResponse = z.object({ ok: z.literal(true) });
