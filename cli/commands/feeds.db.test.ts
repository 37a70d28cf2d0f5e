/** `quin feeds add` refuses a private address at once, without --check, unless private hosts are allowed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { runQuin } from '../../testing/quin-cli';

let t: TestDb;
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestDb();
  env = { QUIN_DATA_DIR: t.dataDir, DATABASE_URL: t.config.databaseUrlResolved, QUIN_LOG_LEVEL: 'warn', QUIN_ALLOW_PRIVATE_HOSTS: 'false' };
});
afterAll(async () => t?.cleanup());

describe('quin feeds add', () => {
  it('refuses private, loopback, link-local and localhost URLs at once, and adds nothing', async () => {
    // Every address form is covered by crawler/http/client.test.ts; here, that the command refuses.
    for (const url of ['http://[::127.0.0.1]:8080/feed.xml', 'http://localhost/feed.xml']) {
      const r = await runQuin(['feeds', 'add', url], env);
      expect(r.status, url).not.toBe(0);
      expect(r.stderr, url).toMatch(/FETCH_BLOCKED|private, loopback/);
    }
    expect(await t.db.feed.count()).toBe(0);
  }, 90_000);

  it('adds such a URL when QUIN_ALLOW_PRIVATE_HOSTS is set (tests, intranets)', async () => {
    const r = await runQuin(['feeds', 'add', 'http://127.0.0.1:8080/feed.xml'], { ...env, QUIN_ALLOW_PRIVATE_HOSTS: 'true' });
    expect(r.status, r.stderr).toBe(0);
    expect(await t.db.feed.count()).toBe(1);
  }, 60_000);
});
