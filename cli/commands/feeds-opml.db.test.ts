/**
 * `quin feeds import` / `export` / `set` / `list` as a user runs them: a real OPML export in, the list
 * out as OPML that reads back to the same feeds, a hostile file refused with the reason and exit 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOpml } from '../../crawler';
import { createTestDb, type TestDb } from '../../testing/db';
import { runQuin } from '../../testing/quin-cli';

const opml = (name: string) => path.join(__dirname, '..', '..', 'crawler', 'testdata', 'opml', name);

describe('quin feeds import / export', () => {
  let t: TestDb;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await createTestDb();
    env = { QUIN_DATA_DIR: t.dataDir, DATABASE_URL: t.config.databaseUrlResolved, QUIN_LOG_LEVEL: 'warn' };
  });
  afterAll(async () => t.cleanup());

  it('imports a FreshRSS export with its folders, exports OPML that reads back the same, and imports it again as nothing new', async () => {
    const r = await runQuin(['feeds', 'import', opml('freshrss.opml'), '--interval', '30'], env);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('3 added, 0 already there, 0 skipped');
    const feeds = await t.db.feed.findMany({ orderBy: { id: 'asc' } });
    expect(feeds.map((f) => [f.url, f.category, f.intervalMinutes])).toEqual([
      ['https://www.lemonde.fr/rss/une.xml', 'Sans catégorie', 30],
      ['https://www.sciencedaily.com/rss/top/science.xml', 'Science & santé', 30],
      ['https://www.nature.com/nature.rss', 'Science & santé', 30],
    ]);

    const out = path.join(t.dataDir, 'export.opml');
    expect((await runQuin(['feeds', 'export', '--out', out], env)).status).toBe(0);
    const back = parseOpml(fs.readFileSync(out));
    expect(new Set(back.feeds.map((f) => JSON.stringify(f)))).toEqual(
      new Set(parseOpml(fs.readFileSync(opml('freshrss.opml'))).feeds.map((f) => JSON.stringify(f))),
    );
    const again = await runQuin(['feeds', 'import', out, '--json'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: [], skipped: [] });

    const set = await runQuin(['feeds', 'set', String(feeds[2]!.id), '--title', 'Nature', '--interval', '120'], env);
    expect(set.stdout).toBe(`feed ${feeds[2]!.id}: "Nature", every 120 min\n`);
    const list = await runQuin(['feeds', 'list'], env);
    expect(list.stdout.split('\n')[0]).toMatch(/^id\s+state\s+fails/);
    expect(list.stdout).toContain('new');
  }, 300_000);

  it('refuses a hostile file with the reason and adds nothing', async () => {
    const before = await t.db.feed.count();
    const r = await runQuin(['feeds', 'import', opml('billion-laughs.opml')], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'not a usable OPML file: it declares entities (an internal DTD subset): refused, entities are never expanded',
    );
    expect(await t.db.feed.count()).toBe(before);
  }, 60_000);
});
