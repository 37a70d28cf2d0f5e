/**
 * One HTTP exchange (no redirects followed): connect timeout, total timeout (body included, so a
 * trickling body cannot hold a worker forever), cancellation, guarded DNS, capped streamed body.
 * Every failure becomes a typed error from lib/errors.ts.
 */
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { createError, isQuinError, type QuinError } from '../../lib/errors';
import { readBody } from './body';
import { cancelled } from './host-queue';

export interface RequestOptions {
  headers: Record<string, string>;
  lookup: net.LookupFunction;
  connectTimeoutMs: number;
  /** Absolute time (Date.now() ms) by which the whole exchange must be over. */
  deadline: number;
  maxBytes: number;
  signal?: AbortSignal;
  /** Decides from status and headers whether the body is wanted; if not, the connection is dropped. */
  wantBody(status: number, headers: http.IncomingHttpHeaders): boolean | QuinError;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer | null;
  wireBytes: number;
}

const NETWORK_CODES: Record<string, string> = {
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  HPE_INVALID_CONSTANT: 'invalid HTTP response',
};

function networkError(url: URL, err: unknown): QuinError {
  if (isQuinError(err)) return err;
  const e = err as NodeJS.ErrnoException;
  const why = (e.code && NETWORK_CODES[e.code]) || e.message || String(err);
  return createError('FETCH_FAILED', `${url.host}: ${why}${e.code && !why.includes(e.code) ? ` (${e.code})` : ''}`, { code: e.code }, err);
}

export function requestOnce(url: URL, opts: RequestOptions): Promise<RawResponse> {
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise<RawResponse>((resolve, reject) => {
    let failure: QuinError | null = null;
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const fail = (err: unknown) => finish(() => reject(failure ?? networkError(url, err)));
    const abortWith = (err: QuinError) => {
      failure ??= err;
      req.destroy(err);
      fail(err);
    };

    const req = mod.request(url, {
      method: 'GET',
      headers: opts.headers,
      lookup: opts.lookup,
      agent: false, // one connection per request: the politeness delay makes keep-alive worthless
    });

    const remaining = Math.max(0, opts.deadline - Date.now());
    const totalTimer = setTimeout(
      () => abortWith(createError('FETCH_TIMEOUT', `${url.host}: no complete response within the total timeout`, { phase: 'total' })),
      remaining,
    );
    const connectTimer = setTimeout(
      () =>
        abortWith(createError('FETCH_TIMEOUT', `${url.host}: could not connect within ${opts.connectTimeoutMs} ms`, { phase: 'connect' })),
      Math.min(opts.connectTimeoutMs, remaining),
    );
    const onAbort = () => abortWith(cancelled(opts.signal));
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    req.on('socket', (socket) => {
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    req.on('error', fail);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const want = opts.wantBody(status, res.headers);
      if (want !== true) {
        // Headers are all we need (redirect, 304, error status, refused type): drop the connection
        // rather than read a body that may be endless.
        req.destroy();
        if (want === false) finish(() => resolve({ status, headers: res.headers, body: null, wireBytes: 0 }));
        else fail(want);
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes && !res.headers['content-encoding']) {
        req.destroy();
        return fail(
          createError('FETCH_TOO_LARGE', `response declares ${declared} bytes, over the ${opts.maxBytes}-byte cap`, {
            maxBytes: opts.maxBytes,
          }),
        );
      }
      readBody(res, res.headers['content-encoding'], opts.maxBytes).then(
        ({ body, wireBytes }) => finish(() => resolve({ status, headers: res.headers, body, wireBytes })),
        (err) => {
          req.destroy();
          fail(err);
        },
      );
    });
    req.end();
  });
}
