/** POST /api/auth/login: admin sign-in (JSON for programs; the sign-in form posts the same fields). */
import { z } from 'zod';

export const loginBody = z.object({
  user: z.string().min(1, 'give the user name').max(200),
  password: z.string().min(1, 'give the password').max(1000),
});

export const loginResponse = z.object({
  user: z.string(),
  csrfToken: z.string().describe('Send it as the x-csrf-token header on POST, PATCH and DELETE.'),
  expiresAt: z.string().describe('When the session cookie expires (ISO 8601).'),
});
