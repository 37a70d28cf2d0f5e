import { expect, test, watchForInjectedScript } from '../support/fixtures';

test.describe('untrusted article text', () => {
  test('<script> and onerror= payloads in an article render as text and never run', async ({ page }) => {
    const check = watchForInjectedScript(page);
    const response = await page.goto('/search?q=' + encodeURIComponent('zebra crossing petition'));
    // A Content-Security-Policy with a per-request nonce backs the escaping up.
    expect(response!.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    const result = page.getByTestId('result').filter({ hasText: 'zebra crossing petition' }).first();
    await expect(result).toBeVisible();
    const text = await result.getByTestId('snippet').innerText();
    expect(text).toContain('<script>window.__xss = 1</script>');
    expect(text).toContain('<img src=x onerror="window.__xss=2">');
    await expect(result.locator('h3')).toContainText('<img src=x onerror="window.__xssTitle=1">');
    // Nothing was turned into elements, and the javascript: URL is not a link.
    await expect(page.locator('main script')).toHaveCount(0);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await expect(result.locator('h3 a')).toHaveCount(0);
    await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);
    await page.waitForTimeout(500);
    await check();
  });
});
