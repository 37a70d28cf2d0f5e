import { expect, test } from '../support/fixtures';

// Two fixture articles: a 2019 one that matches the words better, and a 2024 one that is newer.
const OLD = 'Harbour bridge to close for repairs, council confirms';
const NEW = 'Harbour crossing works extended into summer';
// "As of" 1 June 2024, with nothing published later (other tests add newer articles while this runs).
const BASE = '/search?q=' + encodeURIComponent('harbour bridge closed for repairs') + '&asOf=2024-06-01&to=2024-06-01';

test.describe('journalists’ tools change the order, and the URL keeps them', () => {
  test('recency half-life, sort, source filter; back button and shared URLs', async ({ page, context }) => {
    await page.goto(`${BASE}&halfLifeDays=off`);
    const titles = page.getByTestId('result').locator('h3');
    await expect(titles.first()).toHaveText(OLD);

    // A one-week half-life puts the recent article first.
    await page.getByRole('radio', { name: '1 week' }).check();
    await expect(page).toHaveURL(/halfLifeDays=7/);
    await expect(titles.first()).toHaveText(NEW);
    await expect(page.getByRole('radio', { name: '1 week' })).toBeChecked();

    // Back restores the previous state, controls included.
    await page.goBack();
    await expect(page).toHaveURL(/halfLifeDays=off/);
    await expect(titles.first()).toHaveText(OLD);
    await expect(page.getByRole('radio', { name: /^Off/ })).toBeChecked();

    // Newest first.
    await page.getByRole('radio', { name: 'Newest first' }).check();
    await expect(page).toHaveURL(/sort=newest/);
    await expect(titles.first()).toHaveText(NEW);

    // A shared URL opens in the same state.
    const shared = page.url();
    const other = await context.newPage();
    await other.goto(shared);
    await expect(other.getByTestId('result').locator('h3').first()).toHaveText(NEW);
    await expect(other.getByRole('radio', { name: 'Newest first' })).toBeChecked();
    await other.close();

    // Source filter: only that source; the chip removes it again.
    await page.goto(`${BASE}&halfLifeDays=off`);
    await page.getByRole('checkbox', { name: /Coastal Gazette/ }).check();
    await expect(page).toHaveURL(/sources=Coastal\+Gazette/);
    await expect(page.getByTestId('result').locator('.result__source')).toHaveText(['Coastal Gazette']);
    await page.getByRole('link', { name: 'Remove filter: Coastal Gazette' }).click();
    await expect(page).not.toHaveURL(/sources=/);
    await expect(titles.first()).toHaveText(OLD);
  });

  test('date range and maximum age', async ({ page }) => {
    await page.goto(`${BASE}&halfLifeDays=off&from=2024-01-01`);
    await expect(page.getByTestId('result').locator('h3').first()).toHaveText(NEW);
    await expect(page.getByTestId('result').filter({ hasText: OLD })).toHaveCount(0);
    await page.goto(`${BASE}&halfLifeDays=off&maxAgeDays=30`);
    await expect(page.getByTestId('result').locator('h3').first()).toHaveText(NEW);
    await expect(page.getByLabel('Maximum age')).toHaveValue('30');
    // The coverage chart counts the matching articles over time.
    await page.goto(`${BASE}&halfLifeDays=off`);
    await expect(page.getByTestId('coverage-chart').locator('rect.bar-rect').first()).toBeAttached();
  });

  test('a custom half-life is kept in the URL', async ({ page }) => {
    await page.goto(`${BASE}&halfLifeDays=off`);
    await page.getByRole('radio', { name: 'Custom' }).check();
    await page.getByLabel('Custom half-life in days').fill('3');
    await page.getByLabel('Custom half-life in days').press('Enter');
    await expect(page).toHaveURL(/halfLifeDays=3(&|$)/);
    await expect(page.getByTestId('result').locator('h3').first()).toHaveText(NEW);
  });
});
