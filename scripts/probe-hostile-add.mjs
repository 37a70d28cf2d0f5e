#!/usr/bin/env node
// Adds a feed through the admin API while polling /api/health every 100 ms, and reports how long the
// add took and the slowest health answer meanwhile (a frozen event loop shows as a slow health check).
//   node scripts/probe-hostile-add.mjs --url http://127.0.0.1:3340 --feed <feed URL> --password <admin password> [--user admin]
/* global fetch, performance */
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const base = arg('url', 'http://127.0.0.1:3340');
const login = await fetch(`${base}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ user: arg('user', 'admin'), password: arg('password') }),
});
if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
const cookie = login.headers.get('set-cookie').split(';')[0];
const { csrfToken } = await login.json();

const health = [];
let adding = true;
const poll = (async () => {
  while (adding) {
    const t0 = performance.now();
    const r = await fetch(`${base}/api/health`);
    const body = await r.json();
    health.push({ ms: performance.now() - t0, status: body.status });
    await new Promise((res) => setTimeout(res, 100));
  }
})();
const t0 = performance.now();
const add = await fetch(`${base}/api/feeds`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrfToken },
  body: JSON.stringify({ url: arg('feed') }),
});
const addMs = performance.now() - t0;
const addBody = await add.text();
adding = false;
await poll;
const ms = health.map((h) => h.ms).sort((a, b) => a - b);
console.log(
  JSON.stringify(
    {
      add: { status: add.status, ms: Math.round(addMs), body: addBody.slice(0, 300) },
      health: {
        checks: ms.length,
        maxMs: Math.round(ms.at(-1) ?? 0),
        p50Ms: Math.round(ms[Math.floor(ms.length / 2)] ?? 0),
        statuses: [...new Set(health.map((h) => h.status))],
      },
    },
    null,
    2,
  ),
);
