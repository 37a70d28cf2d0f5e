/**
 * Twenty clients searching at once, more than the service answers: the rest are refused at once
 * with 503 and Retry-After, each refusal is counted in /metrics, and the server's log says so in a
 * line or two, at warn, without a stack (an error with its stack per refusal wrote 4.4 MB a minute).
 */
import fs from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/fixtures';

const CLIENTS = 20;
/** The load lasts at least this long, and until this many refusals were seen (at most MAX_LOAD_MS). */
const LOAD_MS = 8000;
const MIN_REFUSED = 60;
const MAX_LOAD_MS = 45_000;
/** A client asks again this soon, refused or not: Retry-After ignored, but under its rate limit (120 a minute). */
const AGAIN_MS = 600;

async function shedCount(request: APIRequestContext): Promise<number> {
  const text = await (await request.get('/metrics')).text();
  return Number(/^quin_search_requests_total\{outcome="shed"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

interface Load {
  until: number;
  hardUntil: number;
  refused: number;
}

/**
 * One client: searches until the load ends. Node's fetch (undici), one connection per request in
 * flight: the twenty really are at the server at once.
 */
async function client(baseURL: string, n: number, load: Load) {
  const seen = { ok: 0, refused: 0, retryAfter: [] as number[] };
  const url = `${baseURL}/api/search?q=${encodeURIComponent(`harbour bridge repairs ${n}`)}`;
  const headers = { 'x-forwarded-for': `198.18.0.${n + 10}` };
  while (Date.now() < load.hardUntil && (Date.now() < load.until || load.refused < MIN_REFUSED)) {
    const r = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
    const body = (await r.json()) as { error?: { code: string } };
    if (r.status === 503) {
      expect(body.error?.code).toBe('OVERLOADED');
      seen.refused++;
      load.refused++;
      seen.retryAfter.push(Number(r.headers.get('retry-after')));
    } else {
      expect(r.status, JSON.stringify(body)).toBe(200);
      seen.ok++;
    }
    await new Promise((res) => setTimeout(res, AGAIN_MS));
  }
  return seen;
}

test('20 clients at once: refusals are 503 + Retry-After, counted in /metrics, and a line or two in the log', async ({
  request,
  state,
}) => {
  test.setTimeout(180_000);
  const before = await shedCount(request);
  const logFrom = fs.statSync(state.serverLog).size;
  const load: Load = { until: Date.now() + LOAD_MS, hardUntil: Date.now() + MAX_LOAD_MS, refused: 0 };
  const results = await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(state.baseURL, n, load)));
  const refused = results.reduce((s, r) => s + r.refused, 0);
  expect(refused, 'the load must exceed what the service answers').toBeGreaterThanOrEqual(MIN_REFUSED);
  expect(results.reduce((s, r) => s + r.ok, 0)).toBeGreaterThan(0);
  for (const r of results) for (const v of r.retryAfter) expect(v).toBeGreaterThan(0);
  expect(await shedCount(request)).toBe(before + refused);

  // Whatever else the server logs meanwhile, the refusals take a line or two, at warn, without a stack.
  await new Promise((res) => setTimeout(res, 500));
  const log = fs.readFileSync(state.serverLog).subarray(logFrom).toString('utf8');
  const lines = log.split('\n').filter((l) => /OVERLOADED|refused|busy/.test(l));
  expect(lines.length, lines.join('\n')).toBeLessThanOrEqual(2);
  for (const l of lines) {
    expect(JSON.parse(l)).toMatchObject({ level: 'warn', scope: 'web', refused: expect.any(Number) });
    expect(l.length).toBeLessThan(400);
  }
  expect(log).not.toMatch(/"level":"error".*OVERLOADED|request failed.*OVERLOADED/);
});
