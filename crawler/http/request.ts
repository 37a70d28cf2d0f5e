/**
 * One HTTP exchange (no redirects followed) through undici: the dispatcher's socket lookup is the
 * address guard (see address.ts) and its connect timeout bounds the handshake; the caller's signal
 * carries the fetch's deadline and cancellation (its reason, a QuinError, is what a fetch fails
 * with); the body is streamed through the capped reader in body.ts. Every failure becomes a typed
 * error from lib/errors.ts.
 */
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import type net from 'node:net';
import { createError, isQuinError, type QuinError } from '../../lib/errors';
import { readBody } from './body';
import { abortReason } from './host-queue';

export type Headers = Record<string, string | string[] | undefined>;

export interface RequestOptions {
  headers: Record<string, string>;
  dispatcher: Dispatcher;
  /** Fires at the fetch's deadline or on cancellation; its reason is the error to report. */
  signal: AbortSignal;
  maxBytes: number;
  connectTimeoutMs: number;
  /** Decides from status and headers whether the body is wanted; if not, the connection is dropped. */
  wantBody(status: number, headers: Headers): boolean | QuinError;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: Buffer | null;
  wireBytes: number;
}

/**
 * The crawler's dispatcher: every connection resolves its host through the guarded lookup. Requests
 * are sent with `reset` (one connection per request): the politeness delay makes keep-alive worth
 * little, and a connection the server closed while idle would fail the next request with a reset.
 */
/** A TCP/TLS handshake that takes longer than this is a host that is down, not a slow one. */
export const CONNECT_TIMEOUT_MS = 10_000;

export function createDispatcher(lookup: net.LookupFunction, connectTimeoutMs: number): Agent {
  return new Agent({ connect: { lookup, timeout: connectTimeoutMs } });
}

const NETWORK_CODES: Record<string, string> = {
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed',
  HPE_INVALID_CONSTANT: 'invalid HTTP response',
};

function networkError(url: URL, err: unknown, connectTimeoutMs: number): QuinError {
  if (isQuinError(err)) return err;
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'UND_ERR_CONNECT_TIMEOUT')
    return createError('FETCH_TIMEOUT', `${url.host}: could not connect within ${connectTimeoutMs} ms`, { phase: 'connect' }, err);
  if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT')
    return createError('FETCH_TIMEOUT', `${url.host}: the server stopped answering`, { phase: 'total' }, err);
  const why = (e.code && NETWORK_CODES[e.code]) || (e.code?.startsWith('HPE_') ? 'invalid HTTP response' : e.message) || String(err);
  return createError('FETCH_FAILED', `${url.host}: ${why}${e.code && !why.includes(e.code) ? ` (${e.code})` : ''}`, { code: e.code }, err);
}

/** Drops a body that will not be read (its connection is closed; the abort it raises is expected). */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

export async function requestOnce(url: URL, opts: RequestOptions): Promise<RawResponse> {
  let res: Dispatcher.ResponseData;
  try {
    res = await opts.dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: 'GET',
      headers: opts.headers,
      signal: opts.signal,
      reset: true,
    });
  } catch (e) {
    throw networkError(url, abortReason(e, opts.signal), opts.connectTimeoutMs);
  }
  const status = res.statusCode;
  const headers = res.headers as Headers;
  const want = opts.wantBody(status, headers);
  if (want !== true) {
    // Headers are all we need (redirect, 304, error status, refused type): drop the connection
    // rather than read a body that may be endless.
    discard(res.body);
    if (want === false) return { status, headers, body: null, wireBytes: 0 };
    throw want;
  }
  const encoding = headers['content-encoding'];
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > opts.maxBytes && !encoding) {
    discard(res.body);
    throw createError('FETCH_TOO_LARGE', `response declares ${declared} bytes, over the ${opts.maxBytes}-byte cap`, {
      maxBytes: opts.maxBytes,
    });
  }
  try {
    const { body, wireBytes } = await readBody(res.body as Readable, Array.isArray(encoding) ? encoding[0] : encoding, opts.maxBytes);
    return { status, headers, body, wireBytes };
  } catch (e) {
    discard(res.body);
    throw networkError(url, abortReason(e, opts.signal), opts.connectTimeoutMs);
  }
}
