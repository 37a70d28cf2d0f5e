/**
 * Offline first start: a fresh install whose default feeds cannot be reached adds
 * none of them (no wall of red), says so at start and on the dashboard, and adds them when the admin
 * asks. Runs its own server (npm start's scripts/start.mjs) on a fresh data dir, with a default list
 * pointing at a port where nothing listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { hashPassword } from '../../lib/web/password';
import { expect, saveScreenshot, test } from '../support/fixtures';
import { freePort } from '../support/server';
import { ROOT } from '../support/state';

test.describe('first start without internet', () => {
  let proc: ChildProcess | undefined;
  let dataDir = '';
  let logFile = '';
  let baseURL = '';
  const password = crypto.randomBytes(9).toString('base64url');

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-first-start-'));
    logFile = path.join(dataDir, 'start.log');
    const [port, dead] = [await freePort(), await freePort()];
    baseURL = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      QUIN_ROOT: ROOT,
      QUIN_DATA_DIR: dataDir,
      DATABASE_URL: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      QUIN_WORKER: 'false',
      QUIN_ALLOW_PRIVATE_HOSTS: 'true',
      QUIN_SEED_FEEDS: `http://127.0.0.1:${dead}/world/rss.xml,http://127.0.0.1:${dead}/science/rss.xml`,
      QUIN_ADMIN_USER: 'editor',
      QUIN_ADMIN_PASSWORD_HASH: await hashPassword(password),
      QUIN_SESSION_SECRET: crypto.randomBytes(24).toString('base64url'),
      QUIN_NLI_MODEL: 'none',
      QUIN_RERANKER_MODEL: 'none',
    };
    const out = fs.openSync(logFile, 'a');
    proc = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], { cwd: ROOT, env, stdio: ['ignore', out, out] });
    const deadline = Date.now() + 240_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`the server exited: ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
      if (Date.now() > deadline) throw new Error('the server did not start in time');
      const up = await fetch(`${baseURL}/api/health?probe=live`).then(
        (r) => r.ok,
        () => false,
      );
      if (up && fs.readFileSync(logFile, 'utf8').includes('Quin news is running at')) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
  });

  test.afterAll(async () => {
    if (proc && proc.exitCode === null) {
      const done = new Promise((r) => proc!.once('exit', r));
      proc.kill('SIGTERM');
      await done;
    }
    if (dataDir && !process.env.QUIN_E2E_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('no feed is added, the start says why, the dashboard offers to add them', async ({ browser }) => {
    const log = fs.readFileSync(logFile, 'utf8');
    expect(log).toContain('the default news feeds were NOT added: the first check could not reach any of the first 2 feeds');
    const db = new Database(path.join(dataDir, 'quin.db'), { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM feeds').get()).toEqual({ n: 0 });
    db.close();

    const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
    const login = await context.request.post('/api/auth/login', { data: { user: 'editor', password } });
    expect(login.status()).toBe(200);
    const page = await context.newPage();
    await page.goto('/admin');
    const notice = page.getByTestId('seed-notice');
    await expect(notice).toContainText('The 2 default news feeds were not added');
    await expect(notice).toContainText('could not reach');
    await expect(notice).toContainText('This machine may be offline');
    await saveScreenshot(page, 'first-start-390');
    await notice.getByRole('button', { name: 'Add the 2 default feeds' }).click();
    await expect(page.getByTestId('flash')).toContainText('2 default feeds added');
    await expect(page.getByTestId('flash')).toContainText('when the background worker runs (it is not running now');
    await expect(page.getByTestId('seed-notice')).toHaveCount(0);
    await expect(page.getByTestId('feed-row')).toHaveCount(2);
    const after = new Database(path.join(dataDir, 'quin.db'), { readonly: true });
    expect(after.prepare("SELECT count(*) AS n FROM app_settings WHERE key = 'feeds_seeded_at'").get()).toEqual({ n: 1 });
    after.close();
    await context.close();
  });
});
