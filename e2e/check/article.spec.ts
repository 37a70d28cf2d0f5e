/**
 * /check as a reader meets it: an article served by a real HTTP server on 127.0.0.1 (a news page with
 * a headline, a date and navigation around the text) is pasted as a link, fetched by the server under
 * test, and checked claim by claim in Chromium: the text appears with each claim marked, the verdicts
 * arrive one by one, the compound claim is shown in its parts, the sentences left out are listed
 * with their reasons, coverage published after the article is not used, the exports download, the
 * link reruns the check. Hostile pages get a clear error; a text with nothing to check says so; the
 * page passes axe at 1280 and 390 pixels. The API streams NDJSON (its first line arrives before the
 * check ends).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '../support/fixtures';
import { ARTIFACTS } from '../support/state';

// Our own article about the harbour bridge of the e2e fixtures (e2e/fixtures/articles.jsonl): dated four
// days after the Metro Herald's report, before the Coastal Gazette's of 2024.
const ARTICLE = [
  'The city council confirmed on Monday that the harbour bridge will close for repairs next month.',
  'Engineers found corrosion in the harbour bridge deck during an inspection, and repairs to the bridge are expected to take six weeks.',
  'The council said the harbour bridge repairs would cost about four million pounds.',
  'It is a disgrace that drivers must take the coast road.',
  'Will the bridge reopen before the summer?',
  'Sign up for our newsletter to get the latest local news.',
];
const page = (paragraphs: string[]) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour bridge repairs confirmed | Bay Courier</title>` +
  `<meta property="og:site_name" content="Bay Courier"><meta property="article:published_time" content="2019-03-05T10:00:00Z"></head>` +
  `<body><header><nav><a href="/">Home</a> <a href="/local">Local</a></nav></header><main><article><h1>Harbour bridge repairs confirmed</h1>` +
  `${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</article></main><footer>© Bay Courier</footer></body></html>`;

let site: http.Server;
let origin = '';

test.beforeAll(async () => {
  site = http.createServer((req, res) => {
    const routes: Record<string, () => void> = {
      '/robots.txt': () => res.writeHead(404).end(),
      '/news/harbour-bridge': () => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(ARTICLE)),
      '/news/opinions': () =>
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(page(['What a week it has been!', 'I think we should all be proud of our town.', 'Why does nobody listen?'])),
      '/news/huge': () => {
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        for (let i = 0; i < 100; i++) res.write(chunk);
        res.end();
      },
      '/news/binary': () => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(4096, 7)),
    };
    (routes[req.url ?? ''] ?? (() => res.writeHead(404).end('not found')))();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

test.describe('check an article', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a link checked claim by claim: marked text, verdicts with their evidence, parts, what was left out, exports and rerun', async ({
    page: browser,
  }) => {
    await browser.goto('/check');
    await expect(browser.getByRole('heading', { level: 1, name: 'Check an article' })).toBeVisible();
    await browser.getByLabel('Article link').fill(`${origin}/news/harbour-bridge`);
    await browser.getByRole('button', { name: 'Check the claims' }).click();

    // The text first, every claim marked, then each claim's verdict as it is checked.
    await expect(browser.getByTestId('article-text')).toContainText('The city council confirmed on Monday');
    await expect(browser.getByRole('heading', { name: 'Harbour bridge repairs confirmed' })).toBeVisible();
    await expect(browser.getByTestId('claim-mark')).toHaveCount(3);
    await expect(browser.getByTestId('check-progress')).toHaveText(/Checked 3 claims in [\d.]+ s \(the first after [\d.]+ s\)\./, {
      timeout: 120_000,
    });
    const cards = browser.getByTestId('claim-card');
    await expect(cards).toHaveCount(3);
    for (const tag of await browser.getByTestId('verdict-tag').all()) await expect(tag).not.toHaveText('Checking…');
    const counts = await Promise.all(['supported', 'refuted', 'unsettled'].map((k) => browser.getByTestId(`count-${k}`).textContent()));
    expect(counts.reduce((n, c) => n + Number(c), 0)).toBe(3);

    // The compound sentence is checked in its parts, each with its own verdict.
    const compound = cards.nth(1);
    await expect(compound.getByTestId('claim-part')).toHaveCount(2);
    await expect(compound).toContainText('checked in 2 parts');

    // The evidence: the Metro Herald's report of 1 March 2019, with its source; nothing published after the article.
    await expect(browser.getByText('Metro Herald').first()).toBeAttached();
    await expect(browser.getByText(/checked against the coverage up to 2019-03-05/)).toBeVisible();
    expect(await browser.getByText('Coastal Gazette').count()).toBe(0);

    // The sentences left out, with their reasons.
    const leftOut = browser.getByTestId('left-out');
    await leftOut.locator('summary').click();
    await expect(leftOut).toContainText('It is a disgrace that drivers must take the coast road. — an opinion');
    await expect(leftOut).toContainText('Will the bridge reopen before the summer? — a question');
    await expect(leftOut).toContainText('page furniture');

    await browser.screenshot({ path: path.join(ARTIFACTS, 'check-1280.png'), fullPage: true });

    // Exports: the report as JSON and CSV, built from what the page shows.
    const [json] = await Promise.all([browser.waitForEvent('download'), browser.getByRole('button', { name: 'Export JSON' }).click()]);
    const report = JSON.parse(fs.readFileSync((await json.path())!, 'utf8')) as { claims: unknown[]; summary: { claims: number } };
    expect(report.claims.length).toBe(3);
    expect(report.summary.claims).toBe(3);
    const [csv] = await Promise.all([browser.waitForEvent('download'), browser.getByRole('button', { name: 'Export CSV' }).click()]);
    const rows = fs
      .readFileSync((await csv.path())!, 'utf8')
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toMatch(/^claim,sentence,claim_verdict,part,part_text,part_verdict/);
    expect(rows.length).toBe(1 + 4); // one row per part: 1 + 2 + 1

    // The link reruns the same check.
    const rerun = await browser.getByTestId('rerun-link').getAttribute('href');
    expect(rerun).toBe(`/check?url=${encodeURIComponent(`${origin}/news/harbour-bridge`)}`);
    await browser.goto(rerun!);
    await expect(browser.getByTestId('check-progress')).toHaveText(/Checked 3 claims/, { timeout: 120_000 });
  });

  test('at 390 pixels the report reads in one column, and axe finds no serious violation at either width', async ({ page: browser }) => {
    for (const width of [1280, 390]) {
      await browser.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
      await browser.goto(`/check?url=${encodeURIComponent(`${origin}/news/harbour-bridge`)}`);
      await expect(browser.getByTestId('check-progress')).toHaveText(/Checked 3 claims/, { timeout: 120_000 });
      await browser.getByTestId('left-out').locator('summary').click();
      const overflow = await browser.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0);
      const { violations } = await new AxeBuilder({ page: browser })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
        .analyze();
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      expect(await browser.locator('h1').count()).toBe(1);
      if (width === 390) await browser.screenshot({ path: path.join(ARTIFACTS, 'check-390.png'), fullPage: true });
    }
  });

  test('hostile pages get a clear error; a text with nothing to check says so', async ({ page: browser }) => {
    await browser.goto('/check');
    for (const [route, message] of [
      ['/news/huge', /larger than the size cap|larger than 5 MB|size cap/],
      ['/news/binary', /not a web page/],
    ] as const) {
      await browser.getByLabel('Article link').fill(`${origin}${route}`);
      await browser.getByRole('button', { name: 'Check the claims' }).click();
      await expect(browser.getByTestId('check-error')).toHaveText(message);
    }
    await browser.getByLabel('a text').check();
    await browser
      .getByLabel('Article text')
      .fill('What a week it has been! I think we should all be proud of our town. Why does nobody listen?');
    await browser.getByRole('button', { name: 'Check the claims' }).click();
    await expect(browser.getByTestId('check-warning')).toContainText('no check-worthy sentence');
    await expect(browser.getByTestId('check-progress')).toHaveText(/Checked 0 claims/);
  });
});

test.describe('POST /api/check', () => {
  test('streams NDJSON: the article line arrives before the check ends; bad input is a 400 in plain words', async ({
    request,
    baseURL,
  }) => {
    const t0 = Date.now();
    const seen: { type: string; at: number }[] = [];
    // Read the stream with Node's fetch: Playwright's request API waits for the whole body.
    const res = await fetch(`${baseURL}/api/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.77' },
      body: JSON.stringify({ url: `${origin}/news/harbour-bridge` }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        seen.push({ type: (JSON.parse(buffer.slice(0, i)) as { type: string }).type, at: Date.now() - t0 });
        buffer = buffer.slice(i + 1);
      }
    }
    expect(seen.map((s) => s.type)).toEqual(['article', 'claim', 'claim', 'claim', 'done']);
    expect(seen[0]!.at).toBeLessThan(seen.at(-1)!.at);

    const bad = await request.post('/api/check', { data: { text: 'x'.repeat(60_001) }, headers: { 'x-forwarded-for': '203.0.113.78' } });
    expect(bad.status()).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/60,001 characters long; at most 60,000/);
    const neither = await request.post('/api/check', { data: {}, headers: { 'x-forwarded-for': '203.0.113.78' } });
    expect(neither.status()).toBe(400);
    const csv = await request.post('/api/check?format=csv', {
      data: { text: ARTICLE.join('\n'), title: 'Harbour bridge repairs confirmed' },
      headers: { 'x-forwarded-for': '203.0.113.79' },
    });
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toMatch(/text\/csv/);
    expect((await csv.text()).split('\r\n')[0]).toMatch(/claim,sentence,claim_verdict/);
  });
});
