import { expect, saveScreenshot, test } from '../support/fixtures';

test.describe('feed management and crawl health', () => {
  test('add a feed from the local news site, see it crawled, indexed and searchable; its health on the dashboard', async ({
    adminPage: page,
    state,
    db,
  }) => {
    test.setTimeout(180_000);
    await page.goto('/admin');
    await page.getByLabel('Add a feed (RSS, Atom or RDF URL)').fill(state.feedUrl);
    await page.getByRole('button', { name: 'Add feed' }).click();
    await expect(page.getByTestId('flash')).toContainText('Feed added: Estuary Evening News');
    const row = page.locator(`[data-testid="feed-row"][data-feed-url="${state.feedUrl}"]`);
    await expect(row).toBeVisible();

    // The database has it; the worker (polling every second) crawls it.
    const feed = db.prepare('SELECT id, title, status FROM feeds WHERE url = ?').get(state.feedUrl) as {
      id: number;
      title: string;
      status: string;
    };
    expect(feed).toMatchObject({ title: 'Estuary Evening News', status: 'active' });
    await expect
      .poll(() => (db.prepare('SELECT count(*) AS n FROM articles WHERE feed_id = ?').get(feed.id) as { n: number }).n, { timeout: 90_000 })
      .toBe(3);
    // The check's event is written once the run ends, after its articles were stored: polled too.
    const outcomes = () =>
      (db.prepare("SELECT kind, outcome FROM crawl_events WHERE feed_id = ? AND kind = 'feed'").all(feed.id) as { outcome: string }[]).map(
        (e) => e.outcome,
      );
    await expect.poll(outcomes, { timeout: 30_000 }).toContain('ok');

    await expect(async () => {
      await page.reload();
      await expect(row.getByTestId('feed-articles')).toContainText('3');
    }).toPass({ timeout: 30_000 });
    await expect(row.getByTestId('feed-status')).toHaveText('ok');
    await expect(page.getByTestId('events-table')).toContainText('Estuary Evening News');

    // Indexed by the worker, then found by search.
    await expect(async () => {
      await page.goto('/search?q=' + encodeURIComponent('tidal lagoon power plant planning approval'));
      await expect(page.getByTestId('result').first().locator('h3')).toHaveText('Tidal lagoon power plant wins planning approval');
    }).toPass({ timeout: 60_000 });
    await expect(page.getByTestId('result').first().locator('.result__source')).toHaveText('Estuary Evening News');
  });

  test('a feed that fails is highlighted with its error; pause and resume; remove', async ({ adminPage: page, state, db }) => {
    test.setTimeout(120_000);
    await page.goto('/admin');
    await page.getByLabel('Add a feed (RSS, Atom or RDF URL)').fill(state.flakyFeedUrl);
    await page.getByRole('button', { name: 'Add feed' }).click();
    await expect(page.getByTestId('flash')).toContainText('Feed added');
    const row = page.locator(`[data-testid="feed-row"][data-feed-url="${state.flakyFeedUrl}"]`);
    const id = (db.prepare('SELECT id FROM feeds WHERE url = ?').get(state.flakyFeedUrl) as { id: number }).id;
    await expect
      .poll(() => (db.prepare('SELECT consecutive_failures AS n FROM feeds WHERE id = ?').get(id) as { n: number }).n, { timeout: 60_000 })
      .toBeGreaterThan(0);
    await page.reload();
    await expect(row).toHaveClass(/is-failing|is-broken/);
    await expect(row).toContainText('500');
    // Failing and broken feeds are listed before healthy ones.
    await expect(page.getByTestId('feed-row').first()).toHaveAttribute('data-feed-url', state.flakyFeedUrl);
    await saveScreenshot(page, 'dashboard');

    await row.getByRole('button', { name: 'Pause' }).click();
    await expect(page.getByTestId('flash')).toContainText('paused');
    expect(db.prepare('SELECT status FROM feeds WHERE id = ?').get(id)).toEqual({ status: 'paused' });
    await row.getByRole('button', { name: 'Resume' }).click();
    expect(db.prepare('SELECT status FROM feeds WHERE id = ?').get(id)).toEqual({ status: 'active' });

    await row.getByText('Remove').click();
    await row.getByRole('button', { name: 'Confirm removal' }).click();
    await expect(page.getByTestId('flash')).toContainText('Feed removed');
    expect(db.prepare('SELECT count(*) AS n FROM feeds WHERE id = ?').get(id)).toEqual({ n: 0 });
  });

  test('a URL that is not a feed is refused with the reason', async ({ adminPage: page, state, db }) => {
    await page.goto('/admin');
    await page.getByLabel('Add a feed (RSS, Atom or RDF URL)').fill(state.notAFeedUrl);
    await page.getByRole('button', { name: 'Add feed' }).click();
    await expect(page.getByTestId('flash')).toContainText('Could not add the feed');
    expect(db.prepare('SELECT count(*) AS n FROM feeds WHERE url = ?').get(state.notAFeedUrl)).toEqual({ n: 0 });
  });
});
