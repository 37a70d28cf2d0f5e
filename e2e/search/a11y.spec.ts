/**
 * Accessibility of the main pages, checked by axe-core (WCAG 2.0–2.2 A and AA rules and
 * best practices) at 1280 and 390 pixels: no serious or critical violation; one `<h1>` per page; no
 * heading made a live region; the brand link's name holds its visible text. The other findings are
 * printed so that they can be looked at.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';

const QUESTION = 'Is folate linked to homocysteine levels?';
const CLAIM = 'A deficiency of folate increases blood levels of homocysteine.';

const PAGES: { name: string; path: string; admin?: boolean; ready?: (page: Page) => Promise<void> }[] = [
  { name: 'home', path: '/' },
  {
    name: 'results',
    path: `/search?q=${encodeURIComponent(QUESTION)}`,
    ready: (p) => expect(p.getByTestId('result').first()).toBeVisible(),
  },
  {
    name: 'verdict',
    path: `/search?q=${encodeURIComponent(CLAIM)}`,
    ready: (p) => expect(p.getByTestId('result').first()).toBeVisible(),
  },
  {
    name: 'stories',
    path: `/stories?q=${encodeURIComponent('harbour bridge repairs')}`,
    ready: (p) => expect(p.getByTestId('story').first()).toBeVisible(),
  },
  { name: '404', path: '/no-such-page' },
  { name: 'sign-in', path: '/admin/login' },
  {
    name: 'admin',
    path: '/admin',
    admin: true,
    ready: (p) => expect(p.getByTestId('feeds-table').or(p.getByTestId('seed-notice'))).toBeVisible(),
  },
];

test.describe('accessibility (axe-core)', () => {
  test.describe.configure({ timeout: 180_000 });

  for (const { name, path, admin, ready } of PAGES) {
    test(`${name}: no serious or critical violation at 1280 and 390 px, one h1, headings are not live regions`, async ({
      page: anonymous,
      adminPage,
    }) => {
      const page = admin ? adminPage : anonymous;
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
        await page.goto(path);
        await ready?.(page);
        const { violations } = await new AxeBuilder({ page })
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
          .analyze();
        const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        const other = violations.filter((v) => !bad.includes(v));
        if (other.length)
          console.log(`[a11y] ${name} @${width}: ${other.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(', ')}`);
        expect(
          bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`),
          `${name} at ${width} px`,
        ).toEqual([]);
        await expect(page.locator('h1'), `${name}: one h1`).toHaveCount(1);
        await expect(page.locator('h1,h2,h3,h4,h5,h6').and(page.locator('[role="status"],[aria-live]'))).toHaveCount(0);
      }
      const brand = page.getByRole('link', { name: /^Quin/ }).first();
      const visible = (await brand.innerText()).replace(/\s+/g, ' ').trim().toLowerCase();
      expect((await brand.getAttribute('aria-label')) ?? (await brand.textContent())?.replace(/\s+/g, ' ').toLowerCase()).toContain(
        visible,
      );
    });
  }
});
