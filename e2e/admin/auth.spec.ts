import { expect, test } from '../support/fixtures';

test.describe('admin sign-in', () => {
  test('anonymous: 401 with a sign-in form; wrong password: a clear message; right one: the dashboard; sign out', async ({
    page,
    state,
  }) => {
    const anon = await page.goto('/admin');
    expect(anon!.status()).toBe(401);
    await expect(page.getByTestId('unauthorized')).toBeVisible();

    await page.getByLabel('User name').fill(state.adminUser);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('login-error')).toContainText('Wrong user name or password');

    await page.getByLabel('User name').fill(state.adminUser);
    await page.getByLabel('Password').fill(state.adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Crawl health' })).toBeVisible();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'quin_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/signed-out$/);
    const again = await page.goto('/admin');
    expect(again!.status()).toBe(401);
  });
});
