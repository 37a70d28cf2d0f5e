/**
 * "As of" shows the archive as it was on that day, so nothing published after it may
 * appear, wherever asOf is taken: the search (API and page, where "why this result" explains each
 * result), export, stories, the follow feed and the published fact-checks. Two articles on the same
 * story are imported here, one before the as-of day and one published now.
 */
import fs from 'node:fs';
import path from 'node:path';
import { exportResponse } from '../../app/api/export/schema';
import { factChecksResponse } from '../../app/api/fact-checks/schema';
import { storiesResponse } from '../../app/api/stories/schema';
import { searchResponseSchema } from '../../ranking/schema';
import { readWithFeedparser } from '../../testing/atom-check';
import { expect, test } from '../support/fixtures';
import { quin } from '../support/seed';
import { ROOT, type E2EState } from '../support/state';

const AS_OF = '2024-06-01';
const END = Date.parse(`${AS_OF}T23:59:59.999Z`);
const Q = 'tidal barrier gates winter test';
const OLD = 'Tidal barrier gates pass their spring test';
const NEW = 'Tidal barrier gates fail their winter test';
const headers = { 'x-forwarded-for': '10.9.6.1' };

function cliEnv(state: E2EState): NodeJS.ProcessEnv {
  return { ...process.env, QUIN_ROOT: ROOT, QUIN_DATA_DIR: state.dataDir, DATABASE_URL: '', QUIN_LOG_LEVEL: 'warn' };
}

const published = (d: string | null) => d !== null && Date.parse(d) <= END;

test.describe('"as of" is an upper bound on the publication date', () => {
  test.describe.configure({ timeout: 240_000 });

  test.beforeAll(async ({ state, request }) => {
    test.setTimeout(240_000);
    const file = path.join(state.dataDir, 'as-of.jsonl');
    const article = (id: string, title: string, text: string, date: string) =>
      JSON.stringify({ id, title, text, url: `https://estuary-post.example/${id}`, published: date, source: 'Estuary Post' });
    fs.writeFileSync(
      file,
      [
        article(
          'as-of-old',
          OLD,
          'The tidal barrier gates passed their spring test, engineers said. Each gate closed within the required time. A winter test is planned before the storm season.',
          '2024-05-02T08:00:00Z',
        ),
        article(
          'as-of-new',
          NEW,
          'The tidal barrier gates failed their winter test, engineers said. Two gates did not close within the required time. The winter test will be repeated next week.',
          new Date().toISOString(),
        ),
      ].join('\n') + '\n',
    );
    expect(quin(['import', 'jsonl', file], cliEnv(state), () => undefined).ok).toBe(true);
    // Indexed by the worker of the server under test.
    await expect
      .poll(
        async () =>
          (
            (await (await request.get(`/api/search?q=${encodeURIComponent(Q)}&verdict=false&halfLifeDays=off`, { headers })).json()) as {
              results?: { title: string }[];
            }
          ).results?.map((r) => r.title) ?? [],
        { timeout: 180_000 },
      )
      .toEqual(expect.arrayContaining([OLD, NEW]));
  });

  test('search and export: the later article is left out, every result predates the end of the day', async ({ request }) => {
    const search = searchResponseSchema.parse(
      await (await request.get(`/api/search?q=${encodeURIComponent(Q)}&asOf=${AS_OF}&verdict=false`, { headers })).json(),
    );
    expect(search.results.map((r) => r.title)).toContain(OLD);
    expect(search.results.map((r) => r.title)).not.toContain(NEW);
    for (const r of search.results) expect(published(r.publishedAt), `${r.title} ${r.publishedAt}`).toBe(true);

    const exp = await request.get(`/api/export?q=${encodeURIComponent(Q)}&asOf=${AS_OF}&format=json`, { headers });
    expect(exp.status()).toBe(200);
    const doc = exportResponse.parse(await exp.json());
    expect(doc.results.map((r) => r.title)).toContain(OLD);
    for (const r of doc.results) expect(published(r.publishedAt), `${r.title} ${r.publishedAt}`).toBe(true);

    // A "from" date after the as-of day is an empty range that names asOf.
    const empty = await request.get(`/api/search?q=${encodeURIComponent(Q)}&asOf=${AS_OF}&from=2024-07-01`, { headers });
    expect(empty.status()).toBe(400);
    expect((await empty.json()).error).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'the date range is empty: the start date (from) 2024-07-01, after the "as of" date (asOf) 2024-06-01',
    });
  });

  test('stories and the follow feed hold to the same bound', async ({ request }) => {
    const stories = storiesResponse.parse(
      await (await request.get(`/api/stories?q=${encodeURIComponent(Q)}&asOf=${AS_OF}`, { headers })).json(),
    );
    const titles = stories.stories.flatMap((s) => s.articles.map((a) => a.title));
    expect(titles).toContain(OLD);
    expect(titles).not.toContain(NEW);
    for (const s of stories.stories) for (const a of s.articles) expect(published(a.publishedAt), `${a.title} ${a.publishedAt}`).toBe(true);

    const feed = await request.get(`/api/follow?q=${encodeURIComponent(Q)}&asOf=${AS_OF}`, { headers });
    expect(feed.status()).toBe(200);
    const read = await readWithFeedparser(await feed.text());
    expect(read.items.map((i) => i.title)).toContain(OLD);
    expect(read.items.map((i) => i.title)).not.toContain(NEW);
  });

  test('the search page ("why this result") shows nothing published after the day', async ({ page }) => {
    await page.goto(`/search?q=${encodeURIComponent(Q)}&asOf=${AS_OF}`);
    const titles = page.getByTestId('result').locator('h3');
    await expect(titles.first()).toBeVisible();
    expect(await titles.allInnerTexts()).toContain(OLD);
    expect(await titles.allInnerTexts()).not.toContain(NEW);
    const why = page.getByTestId('result').filter({ hasText: OLD }).first().locator('details.why');
    await why.locator('summary').click();
    // Recency is counted from the as-of day: a month old then, not aged from today.
    await expect(why).toContainText('30 days old, half-life 365 days');
  });

  test('published fact-checks: only those published by the day', async ({ request, state }) => {
    expect(
      quin(['import', 'html', path.join(ROOT, 'crawler', 'testdata', 'claimreview', 'array.html')], cliEnv(state), () => undefined).ok,
    ).toBe(true);
    const claim = 'Is it true that the town library will close at five during exam season?';
    const get = async (asOf: string) => {
      const r = await request.get(`/api/fact-checks?q=${encodeURIComponent(claim)}&asOf=${asOf}`, { headers });
      expect(r.status()).toBe(200);
      return factChecksResponse
        .strict()
        .parse(await r.json())
        .factChecks.map((f) => f.rating);
    };
    // The review was published on 2024-05-10.
    expect(await get('2024-05-10')).toEqual(['Pants on Fire!']);
    expect(await get('2024-05-09')).toEqual([]);
  });
});
