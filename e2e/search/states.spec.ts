import { expect, test } from '../support/fixtures';

test.describe('search states', () => {
  test('nothing found: an empty state with suggestions', async ({ page }) => {
    await page.goto('/search?q=' + encodeURIComponent('qwxzv plorfendium zzyzx'));
    await expect(page.getByTestId('empty').or(page.getByTestId('result').first())).toBeVisible();
    if (await page.getByTestId('empty').isVisible()) await expect(page.getByTestId('empty')).toContainText('Nothing found');
  });

  test('invalid parameters and unusable queries are explained, not crashed on', async ({ page }) => {
    const bad = await page.goto('/search?q=ok&halfLifeDays=soon');
    expect(bad!.status()).toBe(200);
    await expect(page.getByTestId('search-problem')).toContainText('halfLifeDays');
    await page.goto('/search?q=' + encodeURIComponent('((( *** )))'));
    await expect(page.getByTestId('search-problem')).toBeVisible();
    await page.goto('/search?q=' + 'a'.repeat(1200));
    await expect(page.getByTestId('search-problem')).toContainText(/1000|too long/);
  });

  test('while a search runs, the form says so', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Claim or question' }).fill('Antidepressants reduce the severity of migraines.');
    await page.getByRole('button', { name: 'Check' }).click();
    await expect(page.getByTestId('result').first()).toBeVisible();
    await expect(page.getByTestId('search-status')).toHaveText('');
  });
});
