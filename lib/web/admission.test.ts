import { describe, expect, it } from 'vitest';
import { getConfig } from '../config';
import { admit, type AdmissionRequest } from './admission';
import { searchGate } from './load-shed';
import { searchRateLimiter } from './rate-limit';

const req = (pathname: string, client: string, q = 'the harbour bridge closes', method = 'GET'): AdmissionRequest => ({
  method,
  pathname,
  query: new URLSearchParams(q ? { q } : {}),
  client,
});

describe('refusals decided before any page or route runs', () => {
  it('a client over its search rate: 429 with Retry-After, as JSON for the API and as a page for /search', () => {
    const limiter = searchRateLimiter(getConfig().searchRateLimit);
    while (limiter.take('198.51.100.7').allowed);
    const api = admit(req('/api/search', '198.51.100.7'))!;
    expect(api.status).toBe(429);
    expect(Number(api.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(api.body)).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    const page = admit(req('/search', '198.51.100.7'))!;
    expect(page).toMatchObject({ status: 429, headers: { 'content-type': 'text/html; charset=utf-8' } });
    expect(page.body).toContain('Too many searches');
    // Another client, another route, no query, a POST: not this function's to refuse.
    expect(admit(req('/api/search', '198.51.100.8'))).toBeNull();
    expect(admit(req('/api/health', '198.51.100.7'))).toBeNull();
    expect(admit(req('/api/search', '198.51.100.7', ''))).toBeNull();
    expect(admit(req('/api/search', '198.51.100.7', 'x', 'POST'))).toBeNull();
  });

  it('every slot and the queue taken: 503 OVERLOADED with Retry-After; a page is refused as soon as every slot is busy', async () => {
    const gate = searchGate();
    const releases: (() => void)[] = [];
    const hold = () => gate.run(() => new Promise<void>((r) => releases.push(r))).catch(() => undefined);
    const running = Array.from({ length: gate.limit }, hold);
    // Busy, not saturated: the API still queues, a page is refused.
    expect(admit(req('/api/search', '198.51.100.9'))).toBeNull();
    expect(admit(req('/stories', '198.51.100.9'))?.status).toBe(503);
    const queued = Array.from({ length: gate.maxQueue }, hold);
    const api = admit(req('/api/export', '198.51.100.9'))!;
    expect(api.status).toBe(503);
    expect(JSON.parse(api.body)).toMatchObject({ error: { code: 'OVERLOADED', message: expect.stringMatching(/^the service is busy/) } });
    expect(Number(api.headers['retry-after'])).toBeGreaterThan(0);
    // fact-checks does not search through the gate: only its rate is checked.
    expect(admit(req('/api/fact-checks', '198.51.100.9'))).toBeNull();
    while (releases.length) releases.shift()!();
    await Promise.all(running);
    while (releases.length || gate.stats().active) {
      releases.shift()?.();
      await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(queued);
    expect(admit(req('/api/search', '198.51.100.9'))).toBeNull();
  });
});
