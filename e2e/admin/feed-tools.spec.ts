/**
 * The admins' feed tools: health that tells the truth (a feed read fine whose
 * items never become articles is "degraded" with the reason), only feeds with problems, edit a feed,
 * check all now, add a feed the typed page links to in one click with the typed URL kept, OPML import
 * and export from the dashboard, and the dashboard readable at 1280 and 390 pixels.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, overflowing, removeLeftFeeds, saveScreenshot, test } from '../support/fixtures';
import { ROOT } from '../support/state';

test.describe('feed tools on the dashboard', () => {
  // The machine this runs on is shared: searches with verdicts can take seconds each.
  test.describe.configure({ timeout: 180_000 });

  test('a feed whose items all fail is degraded with the reason; only feeds with problems; the problem opens in full', async ({
    adminPage: page,
    adminApi,
    state,
    db,
  }) => {
    test.setTimeout(180_000);
    await removeLeftFeeds(adminApi, db, state.degradedFeedUrl);
    const add = await adminApi.request.post('/api/feeds', { headers: adminApi.headers, data: { url: state.degradedFeedUrl } });
    expect(add.status(), await add.text()).toBe(201);
    const id = ((await add.json()) as { feed: { id: number } }).feed.id;
    await expect
      .poll(() => (db.prepare('SELECT articles_failed AS n FROM feeds WHERE id = ?').get(id) as { n: number }).n, { timeout: 60_000 })
      .toBe(3);

    await page.goto('/admin');
    const row = page.locator(`[data-testid="feed-row"][data-feed-url="${state.degradedFeedUrl}"]`);
    await expect(row).toHaveAttribute('data-state', 'degraded');
    await expect(row.getByTestId('feed-status')).toHaveText('degraded');
    await expect(row).toHaveClass(/is-degraded/);
    await expect(page.getByTestId('degraded-notice')).toBeVisible();
    const problem = row.getByTestId('feed-problem');
    await expect(problem).toContainText('none of its latest 3 items became an article');
    // The cell is one line until opened; opened, it shows the full reason.
    const closedHeight = (await row.locator('td.health-cell').boundingBox())!.height;
    expect(closedHeight).toBeLessThan(110);
    await problem.locator('summary').click();
    await expect(problem.locator('.problem__full')).toContainText('and the item has no text of its own');

    const api = await adminApi.request.get('/api/feeds');
    const feed = ((await api.json()) as { feeds: { id: number; state: string; stateReason: string }[] }).feeds.find((f) => f.id === id)!;
    expect(feed.state).toBe('degraded');

    await page.getByTestId('only-problems').click();
    await expect(page).toHaveURL(/\/admin\?problems=1$/);
    const states = await page.getByTestId('feed-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-state')));
    expect(states.length).toBeGreaterThan(0);
    expect(states.every((s) => s === 'degraded' || s === 'failing' || s === 'broken')).toBe(true);
    await expect(page.getByTestId('show-all')).toBeVisible();

    await page.goto('/admin');
    await page.setViewportSize({ width: 1280, height: 900 });
    await saveScreenshot(page, 'dashboard-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin');
    // At phone width the table is a list of cards: nothing wider than the screen.
    expect(await overflowing(page)).toEqual([]);
    await expect(row.getByTestId('feed-status')).toBeVisible();
    await saveScreenshot(page, 'dashboard-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    await adminApi.request.delete(`/api/feeds?id=${id}`, { headers: adminApi.headers });
  });

  // Once, a UTF-8 feed with one stray byte was read as windows-1252 ("CafÃ©") and shown as plain "ok".
  test('a feed read with a warning is ok, and the row shows the warning; its accents are intact', async ({
    adminPage: page,
    adminApi,
    state,
    db,
  }) => {
    await removeLeftFeeds(adminApi, db, state.strayByteFeedUrl);
    const add = await adminApi.request.post('/api/feeds', { headers: adminApi.headers, data: { url: state.strayByteFeedUrl } });
    expect(add.status(), await add.text()).toBe(201);
    const id = ((await add.json()) as { feed: { id: number } }).feed.id;
    const checked = () =>
      db.prepare('SELECT parse_warning AS w FROM feeds WHERE id = ? AND last_success_at IS NOT NULL').get(id) as { w: string } | undefined;
    await expect
      .poll(() => checked()?.w ?? null, { timeout: 60_000 })
      .toBe('1 invalid UTF-8 byte sequence replaced with U+FFFD (the rest read as UTF-8)');
    const titles = (db.prepare('SELECT title FROM feed_items WHERE feed_id = ? ORDER BY item_key').all(id) as { title: string }[]).map(
      (r) => r.title,
    );
    expect(titles).toEqual(['Café naïve résumé Zürich: Alpine tasting notes', 'Café naïve résumé Zürich: Lakeside tasting notes']);

    await page.goto('/admin');
    const row = page.locator(`#feed-${id}`);
    await expect(row).toHaveAttribute('data-state', 'ok');
    await expect(row).toHaveAttribute('data-warning', 'yes');
    await expect(row.locator('.feed-title')).toHaveText('Zürich Café Notes');
    const warning = row.getByTestId('feed-warning');
    await expect(warning).toContainText('Warning: 1 invalid UTF-8 byte sequence replaced with U+FFFD');
    await warning.locator('summary').click();
    await expect(warning.locator('.problem__full')).toHaveText(
      '1 invalid UTF-8 byte sequence replaced with U+FFFD (the rest read as UTF-8)',
    );
    expect((await adminApi.request.delete(`/api/feeds?id=${id}`, { headers: adminApi.headers })).status()).toBe(200);
  });

  // Once, the duplicate's notice named "id 13", which the dashboard never shows; "<update>" was stripped; the notice was 521 px wide at 390.
  test('a feed added twice: the notice names the feed there and links to its row; "<update>" in a title stays; no overflow at 390 px', async ({
    adminPage: page,
    adminApi,
    state,
    db,
  }) => {
    const url = state.feedUrl.replace('/news/feed.xml', '/update/feed.xml');
    await removeLeftFeeds(adminApi, db, url);
    const box = page.getByRole('textbox', { name: /Add a feed/ });
    await page.goto('/admin');
    await box.fill(url);
    await page.getByRole('button', { name: 'Add feed' }).click();
    await expect(page.getByTestId('flash')).toContainText('Feed added: Harbour Weekly <update>.');
    const { id, title } = db.prepare('SELECT id, title FROM feeds WHERE url = ?').get(url) as { id: number; title: string };
    expect(title).toBe('Harbour Weekly <update>');
    const row = page.locator(`#feed-${id}`);
    await expect(row.locator('.feed-title')).toHaveText('Harbour Weekly <update>');

    await box.fill(url);
    await page.getByRole('button', { name: 'Add feed' }).click();
    const flash = page.getByTestId('flash');
    await expect(flash).toContainText('Could not add the feed: this feed is already crawled, as “Harbour Weekly <update>”.');
    await expect(flash).not.toContainText(`id ${id}`);
    await expect(flash.getByRole('link', { name: 'Show it' })).toHaveAttribute('href', `#feed-${id}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    expect(await overflowing(page)).toEqual([]);
    await saveScreenshot(page, 'dashboard-duplicate-390');
    await flash.getByRole('link', { name: 'Show it' }).click();
    await expect(page).toHaveURL(new RegExp(`#feed-${id}$`));
    await expect(row).toBeInViewport();
    await page.setViewportSize({ width: 1280, height: 900 });
    expect((await adminApi.request.delete(`/api/feeds?id=${id}`, { headers: adminApi.headers })).status()).toBe(200);
  });

  test('a page that links to a feed: the typed URL stays, the feed is added in one click', async ({
    adminPage: page,
    adminApi,
    state,
    db,
  }) => {
    const other = state.linksPageUrl.replace('/links.html', '/other/feed.xml');
    await removeLeftFeeds(adminApi, db, other);
    await page.goto('/admin');
    await page.getByRole('textbox', { name: /Add a feed/ }).fill(state.linksPageUrl);
    await page.getByRole('button', { name: 'Add feed' }).click();
    await expect(page.getByTestId('flash')).toContainText('Could not add the feed');
    await expect(page.getByRole('textbox', { name: /Add a feed/ })).toHaveValue(state.linksPageUrl);
    const found = page.getByTestId('discovered-feeds');
    await expect(found).toContainText(other);
    await found.getByRole('button', { name: `Add the feed ${other}` }).click();
    await expect(page.getByTestId('flash')).toContainText('Feed added: Harbour Times');
    const feed = db.prepare('SELECT id, title FROM feeds WHERE url = ?').get(other) as { id: number; title: string };
    expect(feed.title).toBe('Harbour Times');

    // Edit its title and interval.
    const row = page.locator(`[data-testid="feed-row"][data-feed-url="${other}"]`);
    await row.getByTestId(`edit-${feed.id}`).click();
    await row.getByLabel('Title').fill('Harbour Times (local)');
    await row.getByLabel('Check every (min)').fill('15');
    await row.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('flash')).toContainText('Saved: Harbour Times (local), checked every 15 min');
    expect(db.prepare('SELECT title, interval_minutes AS i FROM feeds WHERE id = ?').get(feed.id)).toEqual({
      title: 'Harbour Times (local)',
      i: 15,
    });

    // Check all now: every feed that is not paused becomes due, and the notice says when it really happens.
    await page.getByRole('button', { name: 'Check all now' }).click();
    await expect(page.getByTestId('flash')).toContainText(/will be checked at the worker's next pass \(within 1 s\)/);
    await expect(row.getByTestId('next-check')).toContainText(/next: (at the worker's next pass|in \d+ min)/);

    await row.getByText('Remove').click();
    await row.getByRole('button', { name: 'Confirm removal' }).click();
    await expect(page.getByTestId('flash')).toContainText('Feed removed');
  });

  test("OPML: import a feed reader's export from the dashboard (folders kept), export it back; hostile files refused", async ({
    adminPage: page,
    adminApi,
    state,
    db,
    request,
  }) => {
    const origin = new URL(state.feedUrl).origin;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-opml-'));
    const file = path.join(dir, 'subscriptions.opml');
    fs.writeFileSync(
      file,
      `<?xml version="1.0" encoding="UTF-8"?>
<opml version="1.0"><head><title>Subscriptions in feedly Cloud</title></head><body>
  <outline text="Local &amp; regional" title="Local &amp; regional">
    <outline text="Estuary" title="Estuary">
      <outline type="rss" text="Degraded desk" title="Degraded desk" xmlUrl="${origin}/degraded/feed.xml?via=opml&amp;x=1" htmlUrl="${origin}/"/>
    </outline>
  </outline>
  <outline type="rss" text="Evening desk" title="Evening desk" xmlUrl="${origin}/degraded/feed.xml?via=opml&amp;y=2"/>
</body></opml>`,
    );
    await page.goto('/admin');
    await page.getByText('Import OPML').click();
    await page.locator('input[name="opml"]').setInputFiles(file);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByTestId('flash')).toContainText('OPML imported: 2 added, 0 already there, 0 skipped');
    const rows = db
      .prepare("SELECT id, url, title, category, site_url AS site FROM feeds WHERE url LIKE '%via=opml%' ORDER BY id")
      .all() as { id: number; url: string; title: string; category: string | null; site: string | null }[];
    // (The crawler may fill in a site address from the feed itself once it has read it.)
    expect(rows.map((r) => [r.title, r.category])).toEqual([
      ['Degraded desk', 'Local & regional / Estuary'],
      ['Evening desk', null],
    ]);
    expect(rows[0]!.site).toBe(`${origin}/`);

    // Export (the dashboard link) and read it back: the same feeds, the folders nested again.
    const r = await adminApi.request.get('/admin/feeds/opml');
    expect(r.status()).toBe(200);
    expect(r.headers()['content-type']).toContain('text/x-opml');
    expect(r.headers()['content-disposition']).toMatch(/attachment; filename="quin-feeds-\d{4}-\d{2}-\d{2}\.opml"/);
    const xml = await r.text();
    expect(xml).toContain('<outline text="Local &amp; regional" title="Local &amp; regional">');
    expect(xml).toContain(`xmlUrl="${origin}/degraded/feed.xml?via=opml&amp;x=1"`);
    // Anonymous: refused.
    expect((await request.get('/admin/feeds/opml')).status()).toBe(401);

    // Importing the export again adds nothing.
    fs.writeFileSync(file, xml);
    await page.getByText('Import OPML').click();
    await page.locator('input[name="opml"]').setInputFiles(file);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByTestId('flash')).toContainText(/OPML imported: 0 added, \d+ already there/);

    // A billion-laughs file is refused with the reason; nothing is added.
    const before = (db.prepare('SELECT count(*) AS n FROM feeds').get() as { n: number }).n;
    await page.getByText('Import OPML').click();
    await page.locator('input[name="opml"]').setInputFiles(path.join(ROOT, 'crawler/testdata/opml/billion-laughs.opml'));
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByTestId('flash')).toContainText('Could not import the OPML file: not a usable OPML file: it declares entities');
    expect((db.prepare('SELECT count(*) AS n FROM feeds').get() as { n: number }).n).toBe(before);

    for (const row of rows) await adminApi.request.delete(`/api/feeds?id=${row.id}`, { headers: adminApi.headers });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
