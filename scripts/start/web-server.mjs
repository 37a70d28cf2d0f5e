#!/usr/bin/env node
// The web server: Next.js's production request handler behind a plain node:http server, so that the
// client address seen by the app (rate limits) cannot be forged with a header. Started and supervised
// by scripts/start.mjs; reports readiness to it over IPC. Runs the production build in .next/.
//
// Environment: HOST, PORT, QUIN_TRUST_PROXY (honour X-Forwarded-* from the proxy in front; without it
// they are removed), as start.mjs resolved them from the configuration (lib/config.ts, config file
// included).
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import next from 'next';
import { listenProblem, startCommand } from './port.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || 3000);
const trustProxy = ['1', 'true', 'yes'].includes(String(process.env.QUIN_TRUST_PROXY ?? '').toLowerCase());
const CLIENT_IP_HEADER = 'x-quin-client-ip';

process.env.NODE_ENV = 'production';
process.env.NEXT_TELEMETRY_DISABLED = '1';
process.env.QUIN_ROOT ??= root;

function clientAddress(req) {
  if (trustProxy) {
    // The address our proxy appended is the last entry; anything before it came from the client.
    const hops = String(req.headers['x-forwarded-for'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (hops.length) return hops[hops.length - 1];
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * A search refused before Next.js sees it (over the client's rate, or every search slot taken): the
 * app registers the decision at start (lib/web/admission.ts, on globalThis); each refusal through
 * Next's whole request path took 2-3 ms of the event loop, at a hundred and more a second under load.
 */
const ADMISSION = Symbol.for('quin.web.admission');
function refused(req, res) {
  const admit = globalThis[ADMISSION];
  if (!admit || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  let refusal = null;
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    refusal = admit({ method: req.method, pathname: url.pathname, query: url.searchParams, client: req.headers[CLIENT_IP_HEADER] });
  } catch {
    return false; // Next answers it (and reports what is wrong)
  }
  if (!refusal) return false;
  res.writeHead(refusal.status, refusal.headers);
  res.end(req.method === 'HEAD' ? undefined : refusal.body);
  return true;
}

const app = next({ dev: false, dir: root, hostname: host, port, quiet: true });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  req.headers[CLIENT_IP_HEADER] = clientAddress(req);
  if (!trustProxy) {
    // Without a trusted proxy in front, a client must not choose its address, host, scheme or port
    // (X-Forwarded-Proto: https would mark cookies Secure and change the CSRF origin check): every
    // forwarding header goes; Next fills the ones it needs from the socket.
    for (const name of Object.keys(req.headers)) if (name.startsWith('x-forwarded-') || name === 'forwarded') delete req.headers[name];
  }
  if (refused(req, res)) return;
  handle(req, res).catch((err) => {
    process.stderr.write(`web: request failed: ${err?.stack ?? err}\n`);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('internal error');
  });
});
server.keepAliveTimeout = 65_000;

// A port that cannot be had ends the start (start.mjs does not restart these exit codes): the port
// was free when start.mjs checked it, and something took it since.
const LISTEN_EXIT = { EADDRINUSE: 98, EACCES: 13, EADDRNOTAVAIL: 99, ENOTFOUND: 99, EAI_AGAIN: 99 };
server.on('error', (err) => {
  const problem = listenProblem(err, host, port, startCommand());
  process.stderr.write(`web: ${problem ?? `cannot listen on ${host}:${port}: ${err.message}`}\n`);
  process.exit(LISTEN_EXIT[err.code] ?? 1);
});

server.listen(port, host, () => {
  const addr = server.address();
  const shown = typeof addr === 'object' && addr ? addr.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${shown}`;
  if (process.send) process.send({ type: 'listening', url });
  else process.stdout.write(`web: listening on ${url}\n`);
});

let closing = false;
function shutdown() {
  if (closing) return;
  closing = true;
  server.close(() => process.exit(0));
  server.closeIdleConnections?.();
  // Streaming responses may hold connections open: give them a moment, then go.
  setTimeout(() => {
    server.closeAllConnections?.();
    process.exit(0);
  }, 5000).unref();
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
process.on('disconnect', shutdown);
