/**
 * End-to-end tests against the production build (scripts/start.mjs on 127.0.0.1, started by
 * global-setup.ts with a seeded temporary data dir). Debian's Chromium (`npx playwright install`
 * cannot download browsers here). Two projects: `api` (HTTP only) and `ui` (the browser).
 * `npm test` runs this file and reads the JSON report from PLAYWRIGHT_JSON_OUTPUT_NAME.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Playwright matches a glob against the absolute path with `**/` in front, so 'check/**' would also
// take every spec of a checkout under a folder named check/ (CI's is): anchor on this tree instead.
const specsIn = (...dirs: string[]) => new RegExp(`^${escapeRe(path.join(root, 'e2e'))}[\\/](${dirs.join('|')})[\\/].*\\.spec\\.ts$`);

export default defineConfig({
  testDir: '.',
  outputDir: path.join(root, 'test-results', 'e2e'),
  globalSetup: './global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // One worker: the server under test shares the machine's two cores with the browser.
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? path.join(root, 'test-results', 'playwright.json') }],
    ['html', { open: 'never', outputFolder: path.join(root, 'playwright-report') }],
  ],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.QUIN_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'api', testMatch: specsIn('api') },
    {
      name: 'ui',
      testMatch: specsIn('search', 'admin', 'security', 'check'),
      use: { browserName: 'chromium', viewport: { width: 1280, height: 900 } },
    },
  ],
});
