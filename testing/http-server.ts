/**
 * A real HTTP server on 127.0.0.1 for tests: routes by path, records every request (with its
 * headers, so tests can check conditional GET and the User-Agent), and offers the hostile behaviours
 * the crawler must survive (hanging, trickling, huge and compressed-bomb bodies, redirect loops).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  at: number;
}

export interface TestServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  url(path: string): string;
  route(path: string, handler: Handler): void;
  requests: RecordedRequest[];
  requestsTo(path: string): RecordedRequest[];
  close(): Promise<void>;
}

export async function startTestServer(routes: Record<string, Handler> = {}): Promise<TestServer> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, at: Date.now() });
    const handler = table.get(path) ?? table.get(path.split('?')[0]!) ?? table.get('*');
    if (!handler) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    Promise.resolve(handler(req, res)).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(e));
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (p) => origin + p,
    route: (p, h) => void table.set(p, h),
    requests,
    requestsTo: (p) => requests.filter((r) => r.path === p),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface SendOptions {
  status?: number;
  type?: string;
  headers?: Record<string, string>;
}

export function send(body: string | Buffer, opts: SendOptions = {}): Handler {
  return (_req, res) => {
    res.writeHead(opts.status ?? 200, { 'Content-Type': opts.type ?? 'text/plain; charset=utf-8', ...opts.headers });
    res.end(body);
  };
}

/**
 * Serves a body with an ETag and Last-Modified, answering conditional requests with 304 as a
 * well-behaved server does (or ignoring them, like many real servers, with `conditional: false`).
 */
export function serveBody(
  getBody: () => Buffer,
  opts: { type?: string; gzip?: boolean; lastModified?: Date; conditional?: boolean; headers?: Record<string, string> } = {},
): Handler {
  return (req, res) => {
    const body = getBody();
    const etag = `"${crypto.createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    const lastModified = (opts.lastModified ?? new Date('2024-01-01T00:00:00Z')).toUTCString();
    const headers: Record<string, string> = { 'Content-Type': opts.type ?? 'application/xml', ...opts.headers };
    if (opts.conditional !== false) Object.assign(headers, { ETag: etag, 'Last-Modified': lastModified });
    const fresh =
      req.headers['if-none-match'] === etag || (!req.headers['if-none-match'] && req.headers['if-modified-since'] === lastModified);
    if (opts.conditional !== false && fresh) {
      res.writeHead(304, headers).end();
      return;
    }
    if (opts.gzip && /gzip/.test(String(req.headers['accept-encoding']))) {
      res.writeHead(200, { ...headers, 'Content-Encoding': 'gzip' }).end(zlib.gzipSync(body));
      return;
    }
    res.writeHead(200, headers).end(body);
  };
}

/** Serves a file (read on each request), conditional requests answered as by `serveBody`. */
export function serveFile(file: string, opts: Parameters<typeof serveBody>[1] = {}): Handler {
  return serveBody(() => fs.readFileSync(file), opts);
}

/** Accepts the connection, reads the request, never answers. */
export const hang: Handler = () => new Promise<void>(() => undefined);

/** Sends headers, then one byte every `everyMs` for ever (until the client gives up). */
export function trickle(everyMs = 200): Handler {
  return (req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/rss+xml' });
    res.write('<?xml version="1.0"?><rss version="2.0"><channel>');
    const timer = setInterval(() => res.write(' '), everyMs);
    req.socket.on('close', () => clearInterval(timer));
  };
}

export function redirect(to: string, status = 302): Handler {
  return (_req, res) => void res.writeHead(status, { Location: to }).end();
}

/** Streams `bytes` bytes of valid-looking XML without ever holding them in memory. */
export function hugeBody(bytes: number, opts: { declareLength?: boolean; type?: string } = {}): Handler {
  return (req, res) => {
    const headers: Record<string, string> = { 'Content-Type': opts.type ?? 'application/rss+xml' };
    if (opts.declareLength) headers['Content-Length'] = String(bytes);
    res.writeHead(200, headers);
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const n = Math.min(chunk.length, bytes - sent);
        sent += n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
      }
      res.end();
    };
    req.socket.on('close', () => (sent = bytes));
    pump();
  };
}

const bombs = new Map<string, Buffer>();
function bombBody(inflatedBytes: number, encoding: 'gzip' | 'deflate' | 'br'): Buffer {
  const key = `${encoding}:${inflatedBytes}`;
  let body = bombs.get(key);
  if (!body) {
    const zeros = Buffer.alloc(inflatedBytes);
    if (encoding === 'gzip') body = zlib.gzipSync(zeros, { level: 9 });
    else if (encoding === 'deflate') body = zlib.deflateSync(zeros, { level: 9 });
    else body = zlib.brotliCompressSync(zeros, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } });
    bombs.set(key, body);
  }
  return body;
}

/** A small compressed body that inflates to `inflatedBytes` (zeros): a decompression bomb. */
export function compressionBomb(inflatedBytes: number, encoding: 'gzip' | 'deflate' | 'br' = 'gzip'): Handler {
  const body = bombBody(inflatedBytes, encoding);
  return (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/rss+xml', 'Content-Encoding': encoding }).end(body);
}
