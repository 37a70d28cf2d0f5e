/**
 * Shared fixtures: the server's address (from the global set-up), an admin signed in through the API
 * (as a request context, and as a browser page sharing its cookies), and read-only access to the
 * server's database so that tests can check what UI actions really changed.
 */
import path from 'node:path';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { ARTIFACTS, readState, type E2EState } from './state';

export interface AdminApi {
  request: APIRequestContext;
  csrf: string;
  /** Headers for a state-changing call. */
  headers: Record<string, string>;
}

type TestFixtures = { adminApi: AdminApi; adminPage: Page; db: Database.Database };
type WorkerFixtures = { state: E2EState };

/** Chromium's console text for a Content-Security-Policy refusal (blocked script, eval, style, frame …). */
const CSP_MESSAGE = /Content Security Policy|Refused to (?:execute|load|evaluate|apply|connect|frame)/i;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright's fixture signature: no fixtures used
  state: [async ({}, use) => use(readState()), { scope: 'worker' }],

  // Every page of every browser test (the built-in context, extended): a CSP violation — the
  // browser's own console report, or the securitypolicyviolation event — fails the test that caused it.
  context: async ({ context }, use) => {
    const found: string[] = [];
    await context.exposeBinding('__quinCspViolation', (_source, text: string) => void found.push(text));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (window as unknown as { __quinCspViolation?: (t: string) => void }).__quinCspViolation;
        report?.(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} on ${location.pathname}`);
      });
    });
    context.on('console', (msg) => {
      if (CSP_MESSAGE.test(msg.text())) found.push(`${msg.page()?.url() ?? '?'}: ${msg.text()}`);
    });
    await use(context);
    expect(found, 'the browser reported Content-Security-Policy violations').toEqual([]);
  },
  baseURL: async ({ state }, use) => use(state.baseURL),

  adminApi: async ({ playwright, state }, use) => {
    const request = await playwright.request.newContext({ baseURL: state.baseURL });
    const r = await request.post('/api/auth/login', { data: { user: state.adminUser, password: state.adminPassword } });
    expect(r.status(), await r.text()).toBe(200);
    const { csrfToken } = (await r.json()) as { csrfToken: string };
    await use({ request, csrf: csrfToken, headers: { 'x-csrf-token': csrfToken } });
    await request.dispose();
  },

  adminPage: async ({ context, state }, use) => {
    // Sign-in through the API: the browser context's request shares its cookie jar with its pages.
    const r = await context.request.post(`${state.baseURL}/api/auth/login`, {
      data: { user: state.adminUser, password: state.adminPassword },
    });
    expect(r.status(), await r.text()).toBe(200);
    await use(await context.newPage());
  },

  db: async ({ state }, use) => {
    const db = new Database(state.dbPath, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    await use(db);
    db.close();
  },
});

export { expect };

/** Saves a full-page screenshot under e2e/artifacts/ (kept for people to look at). */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Fails the test when the page runs script it should not (a dialog, or a global the payloads set). */
export function watchForInjectedScript(page: Page): () => Promise<void> {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return async () => {
    expect(dialogs, 'no dialog may open').toEqual([]);
    const globals = await page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>;
      return [w.__xss, w.__xssTitle, w.__xssLink];
    });
    expect(globals, 'no injected script may run').toEqual([undefined, undefined, undefined]);
  };
}

/** Elements that stick out past the right edge of the viewport (empty when the page fits its width). */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 1 && !el.closest('.table-wrap:not(.feeds-wrap)')) {
        out.push(`${el.tagName.toLowerCase()}.${(el.getAttribute('class') ?? '').replace(/\s+/g, '.')} right=${Math.round(r.right)}`);
      }
    }
    return out.slice(0, 10);
  });
}

/**
 * Removes the feeds with these URLs that an earlier try of the test left behind: CI retries a failed
 * test once against the same server, and an add would then be a conflict instead of the feature.
 */
export async function removeLeftFeeds(api: AdminApi, db: Database.Database, ...urls: string[]): Promise<void> {
  for (const url of urls) {
    const left = db.prepare('SELECT id FROM feeds WHERE url = ?').get(url) as { id: number } | undefined;
    if (left) expect((await api.request.delete(`/api/feeds?id=${left.id}`, { headers: api.headers })).status()).toBe(200);
  }
}
