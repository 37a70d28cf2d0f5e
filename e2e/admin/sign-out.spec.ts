/**
 * Sign-out that signs out: a session cookie copied before "Sign out" gets 401
 * afterwards (the session is revoked on the server, not only forgotten by the browser), "Sign out
 * everywhere" ends the sessions of other browsers and API clients, and both land on a page that says so.
 */
import type { Page } from '@playwright/test';
import { expect, saveScreenshot, test } from '../support/fixtures';

async function signInPage(page: Page, user: string, password: string) {
  await page.goto('/admin/login');
  await page.getByLabel('User name').fill(user);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Crawl health' })).toBeVisible();
}

test.describe('sign-out revokes the session', () => {
  // The machine this runs on is shared: searches with verdicts can take seconds each.
  test.describe.configure({ timeout: 180_000 });

  test('a cookie copied before sign-out gets 401 after it, on the API and the dashboard', async ({ page, state, request, db }) => {
    test.setTimeout(180_000);
    await signInPage(page, state.adminUser, state.adminPassword);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'quin_session')!;
    const copied = { cookie: `quin_session=${cookie.value}` };
    expect((await request.get('/api/feeds', { headers: copied })).status()).toBe(200);
    const live = (db.prepare('SELECT count(*) AS n FROM admin_sessions WHERE user = ?').get(state.adminUser) as { n: number }).n;
    expect(live).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/signed-out$/);
    await expect(page.getByTestId('signed-out')).toContainText('You are signed out');
    await expect(page.getByTestId('signed-out')).toContainText('no longer works, even a copy of it');
    await saveScreenshot(page, 'signed-out');

    const api = await request.get('/api/feeds', { headers: copied });
    expect(api.status()).toBe(401);
    expect((await api.json()).error.code).toBe('UNAUTHORIZED');
    expect((await request.get('/admin', { headers: copied })).status()).toBe(401);
    // The state-changing endpoints refuse it too (the copied CSRF token is no help without a live session).
    const post = await request.post('/api/auth/logout', { headers: copied, data: {} });
    expect(post.status()).toBe(401);
  });

  test('sign out everywhere ends the other sessions of the admin', async ({ page, state, playwright, baseURL }) => {
    test.setTimeout(180_000);
    const other = await playwright.request.newContext({ baseURL });
    const r = await other.post('/api/auth/login', { data: { user: state.adminUser, password: state.adminPassword } });
    expect(r.status()).toBe(200);
    expect((await other.get('/api/feeds')).status()).toBe(200);

    await signInPage(page, state.adminUser, state.adminPassword);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page).toHaveURL(/\/admin\/signed-out\?everywhere=\d+$/);
    await expect(page.getByTestId('signed-out')).toContainText('You are signed out everywhere');

    expect((await other.get('/api/feeds')).status()).toBe(401);
    expect((await page.goto('/admin'))!.status()).toBe(401);
    await other.dispose();
  });

  test('the JSON API signs out too: 200 with the count, then 401', async ({ playwright, baseURL, state }) => {
    const c = await playwright.request.newContext({ baseURL });
    const login = await c.post('/api/auth/login', { data: { user: state.adminUser, password: state.adminPassword } });
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const cookie = (await c.storageState()).cookies.find((x) => x.name === 'quin_session')!.value;
    const out = await c.post('/api/auth/logout', { headers: { 'x-csrf-token': csrfToken }, data: {} });
    expect(out.status()).toBe(200);
    expect(await out.json()).toEqual({ ok: true, ended: 1 });
    const again = await playwright.request.newContext({ baseURL });
    expect((await again.get('/api/feeds', { headers: { cookie: `quin_session=${cookie}` } })).status()).toBe(401);
    await Promise.all([c.dispose(), again.dispose()]);
  });
});
