import { expect, test } from '../support/fixtures';

test.describe('admin routes refuse anonymous and forged requests', () => {
  const calls = [
    ['GET', '/api/feeds'],
    ['POST', '/api/feeds'],
    ['PATCH', '/api/feeds'],
    ['DELETE', '/api/feeds?id=1'],
    ['POST', '/api/auth/logout'],
    ['POST', '/admin/feeds'],
  ] as const;

  for (const [method, url] of calls) {
    test(`${method} ${url} without a session → 401`, async ({ request }) => {
      const r = await request.fetch(url, {
        method,
        data: method === 'GET' ? undefined : { url: 'https://example.org/rss', id: 1, action: 'pause' },
      });
      expect(r.status()).toBe(401);
      expect((await r.json()).error.code).toBe('UNAUTHORIZED');
    });
  }

  test('the dashboard page answers 401 with a sign-in form', async ({ request }) => {
    const r = await request.get('/admin');
    expect(r.status()).toBe(401);
    const html = await r.text();
    expect(html).toContain('Sign-in required');
    expect(html).not.toContain('Recent crawl events');
  });

  test('a forged or expired session cookie is refused', async ({ request, baseURL }) => {
    const forged = Buffer.from(JSON.stringify({ u: 'editor', sid: 'x', iat: Date.now(), exp: Date.now() + 3600_000, fp: 'x' })).toString(
      'base64url',
    );
    const r = await request.get('/api/feeds', { headers: { cookie: `quin_session=${forged}.c2lnbmF0dXJl` } });
    expect(r.status()).toBe(401);
    const page = await request.get('/admin', { headers: { cookie: `quin_session=${forged}.c2lnbmF0dXJl`, origin: baseURL! } });
    expect(page.status()).toBe(401);
  });

  test('a signed-in state change without the CSRF token, or from another site, is 403', async ({ adminApi }) => {
    const noToken = await adminApi.request.patch('/api/feeds', { data: { id: 1, action: 'pause' } });
    expect(noToken.status()).toBe(403);
    expect((await noToken.json()).error.code).toBe('FORBIDDEN');
    const wrongToken = await adminApi.request.post('/api/feeds', {
      data: { url: 'https://example.org/rss' },
      headers: { 'x-csrf-token': 'not-the-token' },
    });
    expect(wrongToken.status()).toBe(403);
    const crossSite = await adminApi.request.post('/api/feeds', {
      data: { url: 'https://example.org/rss' },
      headers: { ...adminApi.headers, origin: 'https://evil.example' },
    });
    expect(crossSite.status()).toBe(403);
    // Reading needs no token.
    expect((await adminApi.request.get('/api/feeds')).status()).toBe(200);
  });

  test('sign-in: wrong password 401, bad body 400, the session cookie is HttpOnly and SameSite', async ({ request, state }) => {
    const wrong = await request.post('/api/auth/login', { data: { user: state.adminUser, password: 'wrong-password' } });
    expect(wrong.status()).toBe(401);
    const bad = await request.post('/api/auth/login', { data: { user: state.adminUser } });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).error.message).toContain('password');
    const ok = await request.post('/api/auth/login', { data: { user: state.adminUser, password: state.adminPassword } });
    expect(ok.status()).toBe(200);
    const cookie = ok.headers()['set-cookie']!;
    expect(cookie).toMatch(/^quin_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
    const https = await request.post('/api/auth/login', {
      data: { user: state.adminUser, password: state.adminPassword },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(https.headers()['set-cookie']).toMatch(/Secure/);
  });

  test('sign-in attempts are rate-limited per client (429 + Retry-After)', async ({ request, state }) => {
    const client = { 'x-forwarded-for': `192.0.2.${Math.floor(Math.random() * 200) + 20}` };
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 15 && !retryAfter; i++) {
      const r = await request.post('/api/auth/login', { data: { user: state.adminUser, password: `guess-${i}` }, headers: client });
      statuses.push(r.status());
      if (r.status() === 429) retryAfter = r.headers()['retry-after'];
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.at(-1)).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // Even the right password waits until the limit lifts, and other clients are unaffected.
    const right = await request.post('/api/auth/login', {
      data: { user: state.adminUser, password: state.adminPassword },
      headers: client,
    });
    expect(right.status()).toBe(429);
    const other = await request.post('/api/auth/login', {
      data: { user: state.adminUser, password: state.adminPassword },
      headers: { 'x-forwarded-for': '192.0.2.250' },
    });
    expect(other.status()).toBe(200);
  });
});
