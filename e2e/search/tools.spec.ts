/**
 * The journalists' tools on the pages: the "as of" control, export buttons,
 * the follow link (visible, and discoverable by feed readers), the stories view with "first reported
 * by" one click away and the coverage split by source, and "Fact-checkers have rated this".
 */
import fs from 'node:fs';
import { expect, overflowing, saveScreenshot, test } from '../support/fixtures';

const Q = 'harbour bridge closed for repairs';

test.describe('journalists’ tools', () => {
  // The machine this runs on is shared: searches with verdicts can take seconds each.
  test.describe.configure({ timeout: 180_000 });

  test('"As of" in the filter panel: the archive as it was that day', async ({ page }) => {
    await page.goto(`/search?q=${encodeURIComponent(Q)}&halfLifeDays=off&sort=newest`);
    const titles = page.getByTestId('result').locator('h3');
    await expect(titles.first()).not.toHaveText('Harbour bridge to close for repairs, council confirms');
    // The control sets "to" as well with JavaScript: wait until the page is interactive.
    await page.waitForLoadState('networkidle');
    await page.getByTestId('as-of').fill('2020-01-01');
    await expect(page).toHaveURL(/asOf=2020-01-01/);
    await expect(page).toHaveURL(/to=2020-01-01/);
    await expect(titles.first()).toHaveText('Harbour bridge to close for repairs, council confirms');
    await expect(page.getByRole('link', { name: 'Remove filter: As of 2020-01-01' })).toBeVisible();
    await expect(page.getByTestId('as-of')).toHaveValue('2020-01-01');
    // The URL alone restores it.
    await page.reload();
    await expect(page.getByTestId('as-of')).toHaveValue('2020-01-01');
  });

  test('export buttons download CSV and JSON of the same search; the follow feed is linked and discoverable', async ({ page }) => {
    await page.goto(`/search?q=${encodeURIComponent(Q)}&asOf=2024-06-01&to=2024-06-01`);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    expect(csv.suggestedFilename()).toMatch(/^quin-harbour-bridge-closed-for-repairs-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = fs.readFileSync((await csv.path())!, 'utf8');
    expect(text).toContain('publishedAtSource');
    expect(text).toContain('Harbour bridge to close for repairs, council confirms');
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    const doc = JSON.parse(fs.readFileSync((await json.path())!, 'utf8')) as {
      query: string;
      results: { title: string; evidence: string[] }[];
    };
    expect(doc.query).toBe(Q);
    expect(doc.results[0]!.evidence.length).toBeGreaterThan(0);

    const follow = page.getByTestId('follow-link');
    await expect(follow).toHaveText(/Follow \(Atom feed\)/);
    const href = (await follow.getAttribute('href'))!;
    // The follow feed keeps the search's filters (here the date range), not its paging or "as of".
    expect(href).toBe(`/api/follow?q=${encodeURIComponent(Q).replace(/%20/g, '+')}&to=2024-06-01`);
    await expect(page.locator('head link[rel="alternate"][type="application/atom+xml"]')).toHaveAttribute(
      'href',
      /\/api\/follow\?q=harbour\+bridge/,
    );
    const feed = await page.request.get(href);
    expect(feed.headers()['content-type']).toContain('application/atom+xml');
  });

  test('stories: grouped coverage with "first reported by" one click away, and coverage by source', async ({ page }) => {
    await page.goto(`/search?q=${encodeURIComponent(Q)}&asOf=2024-06-01&to=2024-06-01`);
    await page.getByTestId('stories-tab').click();
    await expect(page).toHaveURL(/\/stories\?q=harbour\+bridge/);
    await expect(page.getByTestId('stories-count')).toContainText(/\d+ stor(y|ies) in the \d+ most relevant articles/);
    const story = page.getByTestId('story').filter({ hasText: 'Harbour bridge to close for repairs, council confirms' }).first();
    await expect(story.getByTestId('first-reported')).toContainText('First reported by Metro Herald on 1 Mar 2019');
    await expect(story.getByTestId('first-reported').getByRole('link')).toHaveAttribute(
      'href',
      'https://metro-herald.example/2019/harbour-bridge-repairs',
    );
    await expect(page.getByTestId('source-chart')).toBeVisible();
    await expect(page.getByTestId('source-chart').locator('figcaption')).toContainText('Metro Herald');
    await saveScreenshot(page, 'stories-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    expect(await overflowing(page)).toEqual([]);
    await saveScreenshot(page, 'stories-390');
  });

  test("stories: problems in the search page's plain words, the search box held to the same limit", async ({ page }) => {
    await page.goto(`/stories?q=${encodeURIComponent(Q)}&from=2025-11-25&to=2018-04-30`);
    const problem = page.getByTestId('search-problem');
    await expect(problem).toContainText('No date can match these filters');
    await expect(problem).toContainText('The “From” date (25 November 2025) is after the “To” date (30 April 2018)');
    await page.goto(`/stories?q=${'harbour bridge repairs '.repeat(60)}`);
    await expect(problem).toContainText('Your query is too long');
    await expect(page.locator('input[name="q"]')).toHaveAttribute('maxlength', '1000');
  });

  test('"Fact-checkers have rated this" beside the verdict, with the link', async ({ page, adminApi, state, db }) => {
    test.setTimeout(180_000);
    const add = await adminApi.request.post('/api/feeds', { headers: adminApi.headers, data: { url: state.factCheckFeedUrl } });
    expect([201, 409]).toContain(add.status());
    await expect
      .poll(() => (db.prepare("SELECT count(*) AS n FROM claim_reviews WHERE reviewer = 'Coast Fact'").get() as { n: number }).n, {
        timeout: 60_000,
      })
      .toBe(1);
    await page.goto(`/search?q=${encodeURIComponent('The harbour bridge repairs will cost forty million pounds')}`);
    const panel = page.getByTestId('fact-checks');
    await expect(panel.getByRole('heading')).toHaveText('Fact-checkers have rated this');
    await expect(panel.getByTestId('fact-check')).toHaveCount(1);
    await expect(panel).toContainText('Incorrect: the council puts the cost at about four million pounds');
    await expect(panel).toContainText('Coast Fact, 5 Mar 2019');
    await expect(panel.getByRole('link', { name: 'Read the fact-check' })).toHaveAttribute(
      'href',
      'https://coastfact.example/2019/harbour-bridge-repair-cost/',
    );
    if (state.nliModel) await expect(page.getByTestId('verdict')).toBeVisible();
    await saveScreenshot(page, 'fact-checks');
    // An unrelated claim shows no panel.
    await page.goto(`/search?q=${encodeURIComponent('The island ferry adds winter sailings')}`);
    await expect(page.getByTestId('results-count')).toBeVisible();
    await expect(page.getByTestId('fact-checks')).toHaveCount(0);
  });
});
