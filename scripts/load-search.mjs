#!/usr/bin/env node
// Load test of a running server's search API: N clients in closed loops (each sends its next request
// as soon as the previous answer arrives) for S seconds, over a list of news claims. Reports the
// latency of served requests (200), how many were shed (503) or rate limited (429), how fast those
// answers came and how many came without Retry-After, and the load average before and after (the
// machine may be shared).
//   node scripts/load-search.mjs --url http://127.0.0.1:3340 [--clients 20] [--seconds 60] [--path /api/search] [--honour-retry-after]
// Each client sends its own X-Forwarded-For (the server needs QUIN_TRUST_PROXY=true to tell them apart).
/* global fetch, performance */
import os from 'node:os';

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const base = arg('url', 'http://127.0.0.1:3340');
const clients = Number(arg('clients', 20));
const seconds = Number(arg('seconds', 60));
const route = arg('path', '/api/search');
// With --honour-retry-after a client refused (503/429) waits the Retry-After it was given, as a well-behaved client does.
const honour = process.argv.includes('--honour-retry-after');
const CLAIMS = [
  'the government raised interest rates',
  'oil prices fell sharply last year',
  'the film won an award at the festival',
  'unemployment rose in the third quarter',
  'the company reported record profits',
  'a new mobile phone was launched',
  'the minister resigned after the scandal',
  'the football club signed a new striker',
  'broadband use is growing in homes',
  'the election was won by a small margin',
  'house prices are falling',
  'the band released a new album',
  'airline shares dropped after the warning',
  'video game sales reached a record',
  'the chancellor announced tax cuts',
  'the tennis player won the open',
  'inflation is below the target',
  'the merger was blocked by regulators',
  'a virus attacked computers worldwide',
  'the singer cancelled the tour',
];

const pct = (xs, p) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]);
};

const results = [];
const until = Date.now() + seconds * 1000;
const load0 = os.loadavg();
async function client(i) {
  let n = 0;
  while (Date.now() < until) {
    const q = CLAIMS[(i + n++) % CLAIMS.length];
    const t0 = performance.now();
    let status = 0;
    let wait = 0;
    let retryAfter = null;
    try {
      const r = await fetch(`${base}${route}?q=${encodeURIComponent(q)}`, { headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } });
      await r.arrayBuffer();
      status = r.status;
      retryAfter = r.headers.get('retry-after');
      if (honour && (status === 503 || status === 429)) wait = Number(r.headers.get('retry-after') ?? 1) * 1000;
    } catch {
      status = -1;
    }
    results.push({ status, ms: performance.now() - t0, retryAfter });
    if (wait) await new Promise((res) => setTimeout(res, Math.min(wait, Math.max(0, until - Date.now()))));
  }
}
await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
const load1 = os.loadavg();
const by = (s) => results.filter((r) => r.status === s).map((r) => r.ms);
const served = by(200);
const shed = by(503);
const limited = by(429);
const other = results.filter((r) => ![200, 503, 429].includes(r.status));
const out = {
  url: `${base}${route}`,
  honourRetryAfter: honour,
  clients,
  seconds,
  requests: results.length,
  served: {
    n: served.length,
    p50Ms: pct(served, 50),
    p95Ms: pct(served, 95),
    maxMs: pct(served, 100),
    perSecond: +(served.length / seconds).toFixed(2),
  },
  shed503: { n: shed.length, share: +(shed.length / results.length).toFixed(3), p50Ms: pct(shed, 50), p95Ms: pct(shed, 95) },
  rateLimited429: { n: limited.length, p95Ms: pct(limited, 95) },
  // Every refusal must say when to come back (Retry-After).
  refusedWithoutRetryAfter: results.filter((r) => (r.status === 503 || r.status === 429) && !r.retryAfter).length,
  other: { n: other.length, statuses: [...new Set(other.map((r) => r.status))] },
  loadAverage: { before: load0.map((x) => +x.toFixed(2)), after: load1.map((x) => +x.toFixed(2)) },
  cpus: os.availableParallelism(),
};
console.log(JSON.stringify(out, null, 2));
