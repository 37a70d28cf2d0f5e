/**
 * Route-handler plumbing: every JSON handler is wrapped so that errors become `{error: {code,
 * message}}` with the catalogue's status (400 for bad input, never a stack trace), rate-limit
 * refusals carry Retry-After, and admin handlers get their session checked.
 */
import type { z } from 'zod';
import { isQuinError } from '../../lib/errors';
import { errorBody, errorResponse, searchParamsObject } from '../../lib/web/http';
import { processMetrics } from '../../lib/web/metrics';
import { clientKey } from '../../lib/web/rate-limit';
import type { Session } from '../../lib/web/session';
import { requireAdminRequest, sessionOf } from '../../lib/web/auth';
import { createError } from '../../lib/errors';
import { isSessionLive } from '../../lib/web/session-store';
import { auth, services } from './services';

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

export function api<C>(fn: Handler<C>): Handler<C> {
  return async (req, ctx) => {
    try {
      return await fn(req, ctx);
    } catch (err) {
      const { body } = errorBody(err);
      processMetrics().httpErrors.inc({ code: body.error.code });
      const headers = new Headers();
      if (isQuinError(err, 'RATE_LIMITED') || isQuinError(err, 'OVERLOADED'))
        headers.set('retry-after', String(err.details?.retryAfterSeconds ?? 60));
      return errorResponse(err, headers);
    }
  };
}

export const clientOf = (req: Request) => clientKey(req.headers);

export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  return schema.parse(searchParamsObject(new URL(req.url).searchParams));
}

export async function parseJsonBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const text = await req.text();
  return schema.parse(text.trim() === '' ? {} : JSON.parse(text));
}

/**
 * The admin session; UNAUTHORIZED (401) when there is none or it was signed out (the cookie's session
 * id is no longer in admin_sessions), FORBIDDEN (403, CSRF / cross-site) otherwise.
 */
export async function adminSession(req: Request, csrfToken?: string | null): Promise<Session> {
  const a = await auth();
  // A signed-out session is refused as unauthenticated (401) before any CSRF question (403) arises.
  const signed = sessionOf(a, req.headers.get('cookie'));
  if (signed && !(await isSessionLive((await services()).db, signed)))
    throw createError('UNAUTHORIZED', 'this session was signed out: sign in again (POST /api/auth/login)');
  return requireAdminRequest(a, req, csrfToken === undefined ? {} : { csrfToken });
}
