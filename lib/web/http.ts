/**
 * JSON API plumbing shared by the route handlers: query-string parsing for zod, and error responses
 * that carry a code and a readable message, never a stack trace.
 */
import { ZodError, type z } from 'zod';
import { ERROR_CODES, isQuinError, type ErrorCode } from '../errors';
import { createLogger } from '../log';

const log = createLogger('web');

export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; issues?: { path: string; code?: string; message: string }[] };
}

/** URLSearchParams → plain object; a key given several times becomes an array. */
export function searchParamsObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length > 1 ? all : all[0]!;
  }
  return out;
}

/**
 * A zod validation error from any copy of zod (each Next.js bundle may hold one): recognised by its
 * name and issues, as QuinErrors are by their code (lib/errors.ts), never by class identity alone.
 */
export function isZodError(err: unknown): err is ZodError {
  if (err instanceof ZodError) return true;
  const e = err as { name?: unknown; issues?: unknown } | null;
  return typeof e === 'object' && e !== null && e.name === 'ZodError' && Array.isArray(e.issues);
}

export function zodIssues(err: ZodError): { path: string; code: string; message: string }[] {
  return err.issues.map((i) => ({ path: i.path.map(String).join('.') || '(input)', code: i.code, message: i.message }));
}

/** The machine details a QuinError carries for the client (`details.issues`, as the search contract sets them). */
function detailIssues(details: Record<string, unknown> | undefined): ApiErrorBody['error']['issues'] {
  const issues = details?.issues;
  if (!Array.isArray(issues)) return undefined;
  return issues.map((i: { path?: unknown; code?: unknown; message?: unknown }) => ({
    path: String(i.path ?? ''),
    ...(i.code ? { code: String(i.code) } : {}),
    message: String(i.message ?? ''),
  }));
}

export function readableZodError(err: ZodError): string {
  return zodIssues(err)
    .map((i) => `${i.path}: ${i.message}`)
    .join('; ');
}

/** Parses or throws a ZodError (turned into a 400 by errorResponse). */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  return schema.parse(input);
}

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('cache-control', headers.get('cache-control') ?? 'no-store');
  return new Response(JSON.stringify(body), { ...init, headers });
}

export function errorBody(err: unknown): { status: number; body: ApiErrorBody } {
  if (isZodError(err)) {
    return { status: 400, body: { error: { code: 'INVALID_INPUT', message: readableZodError(err), issues: zodIssues(err) } } };
  }
  if (isQuinError(err)) {
    const status = err.status;
    // 5xx messages can name internals (paths, hosts): clients get the catalogue's summary, or the
    // message written for them (`details.publicMessage`, e.g. which search cluster is unreachable).
    const publicMessage = typeof err.details?.publicMessage === 'string' ? err.details.publicMessage : null;
    const message = status >= 500 ? (publicMessage ?? ERROR_CODES[err.code].summary) : err.message;
    const issues = status < 500 ? detailIssues(err.details) : undefined;
    return { status, body: { error: { code: err.code, message, ...(issues ? { issues } : {}) } } };
  }
  if (err instanceof SyntaxError)
    return { status: 400, body: { error: { code: 'INVALID_INPUT', message: 'the request body is not valid JSON' } } };
  return { status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } };
}

/**
 * An error as a JSON response. Unexpected errors are logged here, with their stack, and only here. A
 * search refused as busy (OVERLOADED) is expected under load: it was counted and logged where it was
 * refused (shed-log.ts), without a stack.
 */
export function errorResponse(err: unknown, headers?: HeadersInit): Response {
  const { status, body } = errorBody(err);
  if (status >= 500 && !isQuinError(err, 'OVERLOADED'))
    log.error('request failed', { code: body.error.code, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  return jsonResponse(body, { status, headers });
}
