import path from 'node:path';
import { expect, saveScreenshot, test } from '../support/fixtures';
import { ARTIFACTS } from '../support/state';

const CLAIM = 'A deficiency of folate increases blood levels of homocysteine.';

test.describe('searching a claim', () => {
  test('from the home page: highlighted evidence, the verdict panel, why this result', async ({ page, state }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Check a claim against the news' })).toBeVisible();
    await saveScreenshot(page, 'home');
    const box = page.getByRole('searchbox', { name: 'Claim or question' });
    await box.fill(CLAIM);
    await box.press('Enter');
    await expect(page).toHaveURL(/\/search\?q=A\+deficiency\+of\+folate/);
    const results = page.getByTestId('result');
    await expect(results.first()).toBeVisible();
    await expect(page.getByTestId('results-count')).toContainText('matching passages');

    // Evidence sentences are marked inside the snippet text.
    const first = results.first();
    const marks = first.getByTestId('snippet').locator('mark[data-evidence]');
    expect(await marks.count()).toBeGreaterThan(0);
    expect((await marks.first().innerText()).length).toBeGreaterThan(20);
    await expect(page.getByTestId('result').filter({ hasText: /folic acid supplementation and serum homocysteine/i })).toHaveCount(1);

    // Dates are shown relative and absolute, sources named, links go to the article.
    await expect(first.locator('.result__source')).toHaveText('SciFact');

    // "Why this result" opens the score breakdown.
    await first.getByText('Why this result').click();
    await expect(first.getByRole('rowheader', { name: 'Keyword match (BM25)' })).toBeVisible();
    await expect(first.getByRole('rowheader', { name: '× Recency' })).toBeVisible();
    await expect(first.getByTestId('why-final')).toBeVisible();

    if (state.nliModel) {
      const verdict = page.getByTestId('verdict');
      await expect(verdict).toBeVisible();
      await expect(verdict.getByTestId('verdict-label')).toHaveText(/Supported|Refuted|Mixed evidence|Not enough evidence/);
      await expect(verdict).toContainText('% confidence');
      await expect(verdict).toContainText('computed automatically');
      await expect(verdict.getByTestId('stance-supports')).toBeVisible();
      await expect(verdict.getByTestId('stance-refutes')).toBeVisible();
      // Each heading counts exactly what is listed under it, and every listed sentence says why it reads that way.
      for (const key of ['supports', 'refutes', 'neutral']) {
        const column = verdict.getByTestId(`stance-${key}`);
        const listed = await column.getByTestId('stance-item').count();
        await expect(column.getByTestId('stance-count')).toHaveText(String(listed));
        await expect(column.getByTestId('stance-reason')).toHaveCount(listed);
      }
      expect(await verdict.getByTestId('stance-item').count()).toBeGreaterThan(0);
      // The label never stands above an empty column: "Supported" lists a supporting sentence, "Refuted" a contradicting one.
      const label = await verdict.getByTestId('verdict-label').innerText();
      if (/Supported|Mixed/.test(label))
        expect(await verdict.getByTestId('stance-supports').getByTestId('stance-item').count()).toBeGreaterThan(0);
      if (/Refuted|Mixed/.test(label))
        expect(await verdict.getByTestId('stance-refutes').getByTestId('stance-item').count()).toBeGreaterThan(0);
    } else {
      await expect(page.getByTestId('verdict-unavailable')).toContainText('No verdict model is configured');
    }
    await saveScreenshot(page, 'verdict');
    await page
      .getByTestId('verdict')
      .or(page.getByTestId('verdict-unavailable'))
      .screenshot({ path: path.join(ARTIFACTS, 'verdict-panel.png') });
  });

  test('a question gets evidence and no verdict; the keyboard reaches the search box', async ({ page }) => {
    await page.goto('/search?q=' + encodeURIComponent('Do antidepressants reduce the severity of migraines?'));
    await expect(page.getByTestId('verdict-question')).toBeVisible();
    await expect(page.getByTestId('result').first()).toBeVisible();
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    await expect(page.getByRole('searchbox', { name: 'Claim or question' })).toBeFocused();
    await saveScreenshot(page, 'search');
  });

  test('works on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/search?q=' + encodeURIComponent(CLAIM));
    await expect(page.getByTestId('result').first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await saveScreenshot(page, 'search-phone');
  });
});
