/**
 * One typed catalogue of error codes (after Orama's errors.ts). Every failure the product reports to
 * a user carries one of these codes, so the CLI, the API and the tests can tell failures apart
 * without parsing messages.
 */
export const ERROR_CODES = {
  CONFIG_INVALID: { status: 500, summary: 'invalid configuration' },
  DB_UNAVAILABLE: { status: 503, summary: 'database unavailable' },
  MIGRATION_FAILED: { status: 500, summary: 'database migration failed' },
  NOT_FOUND: { status: 404, summary: 'not found' },
  INVALID_INPUT: { status: 400, summary: 'invalid input' },
  CONFLICT: { status: 409, summary: 'conflict' },
  FEED_PARSE_ERROR: { status: 422, summary: 'the document is not a parsable feed' },
  FEED_PARSE_TIMEOUT: { status: 422, summary: 'the document took too long to read' },
  FETCH_FAILED: { status: 502, summary: 'fetch failed' },
  FETCH_TIMEOUT: { status: 504, summary: 'fetch timed out' },
  FETCH_TOO_LARGE: { status: 413, summary: 'response larger than the size cap' },
  FETCH_BLOCKED: { status: 403, summary: 'address not allowed' },
  FETCH_ROBOTS: { status: 403, summary: 'disallowed by robots.txt' },
  FETCH_HTTP_STATUS: { status: 502, summary: 'unexpected HTTP status' },
  FETCH_PAUSED: { status: 503, summary: 'the server asked for a pause (Retry-After); not asked again before it ends' },
  FETCH_CONTENT_TYPE: { status: 415, summary: 'unexpected content type' },
  FETCH_REDIRECTS: { status: 508, summary: 'too many redirects or a redirect loop' },
  EXTRACTION_FAILED: { status: 422, summary: 'no article text could be extracted' },
  QUERY_EMPTY: { status: 400, summary: 'the query is empty' },
  QUERY_TOO_LONG: { status: 400, summary: 'the query is too long' },
  QUERY_UNUSABLE: { status: 400, summary: 'the query has no searchable words' },
  INDEX_UNAVAILABLE: { status: 503, summary: 'index unavailable' },
  INDEX_CORRUPT: { status: 500, summary: 'index does not match the database' },
  MODEL_UNAVAILABLE: { status: 503, summary: 'model unavailable' },
  MODEL_INVALID: { status: 500, summary: 'model folder is not valid' },
  DOWNLOAD_FAILED: { status: 502, summary: 'download failed' },
  RATE_LIMITED: { status: 429, summary: 'too many requests' },
  OVERLOADED: { status: 503, summary: 'the service is busy: try again shortly' },
  UNAUTHORIZED: { status: 401, summary: 'sign-in required' },
  FORBIDDEN: { status: 403, summary: 'forbidden' },
  CANCELLED: { status: 499, summary: 'cancelled (shutdown or abort)' },
  INTERNAL: { status: 500, summary: 'internal error' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The mark every QuinError carries, under a registry symbol (Symbol.for): the same in every copy of
 * this module. Next.js compiles this file into each of its bundles (the proxy, the pages, the route
 * handlers), and an error made by one copy — the search gate on globalThis is created by whichever
 * bundle asks first — failed `instanceof` against another's class: the JSON API answered a busy
 * refusal as 500 INTERNAL. Errors are recognised by this mark and their code, never by class identity.
 */
const BRAND = Symbol.for('quin.error');

function isErrorCode(v: unknown): v is ErrorCode {
  return typeof v === 'string' && Object.hasOwn(ERROR_CODES, v);
}

function branded(v: unknown): v is QuinError {
  return (
    typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[BRAND] === true && isErrorCode((v as { code?: unknown }).code)
  );
}

export class QuinError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message ?? ERROR_CODES[code].summary, options);
    this.name = 'QuinError';
    this.code = code;
    this.details = details;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** `instanceof QuinError` holds for a QuinError of any copy of this module (see BRAND). */
  static override [Symbol.hasInstance](v: unknown): boolean {
    return branded(v);
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

export function createError(code: ErrorCode, message?: string, details?: Record<string, unknown>, cause?: unknown): QuinError {
  return new QuinError(code, message, details, cause === undefined ? undefined : { cause });
}

/** Whether `err` is a QuinError (of any bundle's copy of this module), optionally with that code. */
export function isQuinError(err: unknown, code?: ErrorCode): err is QuinError {
  return branded(err) && (code === undefined || err.code === code);
}

/** A QuinError as plain data, for a message to another thread or process (class and symbol do not cross). */
export interface WireError {
  code: ErrorCode | null;
  message: string;
  details?: Record<string, unknown>;
}

export function toWire(err: unknown): WireError {
  if (isQuinError(err)) return { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
  return { code: null, message: err instanceof Error ? err.message || err.name : String(err) };
}

/** The error again on the receiving side: a QuinError with its code where it had one. */
export function fromWire(w: WireError): Error {
  return isErrorCode(w.code) ? createError(w.code, w.message, w.details) : new Error(w.message);
}

/** A one-line, user-facing description of any thrown value (no stack traces). */
export function describeError(err: unknown): string {
  if (isQuinError(err)) return `${err.code}: ${err.message}`;
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
