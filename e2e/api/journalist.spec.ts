/**
 * The journalists' API: follow a claim as Atom (valid for RFC 4287 and read
 * by a real feed parser; new coverage becomes a new entry stamped with the verdict of that moment),
 * export with provenance as CSV and JSON, stories, and published fact-checks found by crawling and by
 * importing saved pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { atomProblems, readWithFeedparser } from '../../testing/atom-check';
import { exportResponse } from '../../app/api/export/schema';
import { storiesResponse } from '../../app/api/stories/schema';
import { factChecksResponse } from '../../app/api/fact-checks/schema';
import { expect, test } from '../support/fixtures';
import { quin } from '../support/seed';
import { ROOT, type E2EState } from '../support/state';

const CLAIM = 'The harbour bridge will close for repairs';

function cliEnv(state: E2EState): NodeJS.ProcessEnv {
  return { ...process.env, QUIN_ROOT: ROOT, QUIN_DATA_DIR: state.dataDir, DATABASE_URL: '', QUIN_LOG_LEVEL: 'warn' };
}

/** RFC 4180 rows (quoted fields, doubled quotes, CRLF), enough to read our own export back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    row.push(field.replace(/\r$/, ''));
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n') {
      endField();
      rows.push(row);
      row = [];
    } else field += c;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

test.describe('follow a claim (Atom)', () => {
  // The machine this runs on is shared: searches with verdicts can take seconds each.
  test.describe.configure({ timeout: 180_000 });

  test('the feed is valid Atom that a feed parser reads; new coverage arrives as a new entry with the verdict at that time', async ({
    request,
    state,
    db,
  }) => {
    test.setTimeout(240_000);
    const url = `/api/follow?q=${encodeURIComponent(CLAIM)}`;
    const first = await request.get(url, { headers: { 'x-forwarded-for': '10.9.0.1' } });
    expect(first.status(), await first.text()).toBe(200);
    expect(first.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
    const xml1 = await first.text();
    expect(atomProblems(xml1)).toEqual([]);
    const read1 = await readWithFeedparser(xml1);
    expect(read1.meta.type).toBe('atom');
    expect(read1.meta.title).toBe(`Quin news: “${CLAIM}”`);
    expect(read1.items.length).toBeGreaterThan(0);
    const harbour = read1.items.find((i) => i.title === 'Harbour bridge to close for repairs, council confirms')!;
    expect(harbour.link).toBe('https://metro-herald.example/2019/harbour-bridge-repairs');
    // A verdict is stamped only where it committed and read the entry as evidence: then it names it, else it is left out.
    if (harbour.categories.length) {
      expect(harbour.categories[0]).toMatch(/^verdict:(supported|refuted|mixed)$/);
      expect(harbour.summary).toMatch(/^Verdict when this appeared: (supported|refuted|mixed)/);
    } else expect(harbour.summary).toMatch(/^Metro Herald, published /);
    // Newest first, by publication date.
    const dates = read1.items.map((i) => i.pubdate?.getTime() ?? -Infinity);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));

    // New coverage: an article imported now, indexed by the worker.
    const file = path.join(state.dataDir, 'follow-new.jsonl');
    const title = 'Harbour bridge repairs finished two weeks early';
    fs.writeFileSync(
      file,
      JSON.stringify({
        id: 'follow-new-1',
        title,
        text: 'The harbour bridge reopened on Friday after repairs finished two weeks early, the council said. The bridge had closed for repairs after engineers found corrosion in its deck. Drivers no longer need to use the coast road diversion.',
        url: 'https://harbour-news.example/bridge-reopens-early',
        published: new Date().toISOString(),
        source: 'Harbour News',
      }) + '\n',
    );
    expect(quin(['import', 'jsonl', file], cliEnv(state), () => undefined).ok).toBe(true);
    // Indexed by both indexes: BM25 takes a new article up first, the dense index a moment later, and
    // until then the article's relevance to the followed claim lacks its dense half.
    await expect
      .poll(
        async () => {
          const top = (
            await (
              await request.get(`/api/search?q=${encodeURIComponent('harbour bridge repairs finished two weeks early')}&verdict=false`, {
                headers: { 'x-forwarded-for': '10.9.0.2' },
              })
            ).json()
          ).results?.[0];
          return [top?.title, top?.scores?.dense !== null && top?.scores?.dense !== undefined];
        },
        { timeout: 120_000 },
      )
      .toEqual([title, true]);

    const xml2 = await (await request.get(url, { headers: { 'x-forwarded-for': '10.9.0.1' } })).text();
    expect(atomProblems(xml2)).toEqual([]);
    const read2 = await readWithFeedparser(xml2);
    const added = read2.items.filter((i) => !read1.items.some((o) => o.guid === i.guid));
    expect(added.map((i) => i.title)).toContain(title);
    // Entries already reported keep their id, time and verdict; the newest comes first.
    const again = read2.items.find((i) => i.guid === harbour.guid)!;
    expect([again.date?.toISOString(), again.summary]).toEqual([harbour.date?.toISOString(), harbour.summary]);
    expect(read2.items[0]!.date!.getTime()).toBeGreaterThanOrEqual(read2.items.at(-1)!.date!.getTime());
    const row = db.prepare('SELECT verdict_status AS s, verdict_label AS l FROM follow_entries WHERE title = ?').get(title) as {
      s: string;
      l: string | null;
    };
    expect(row.s).toBe(state.nliModel ? 'ok' : 'no_model');
    expect([null, 'SUPPORTED', 'REFUTED', 'MIXED']).toContain(row.l);
  });

  // Reads do not write more than one followed search.
  test('100 polls varying only halfLifeDays make at most one follow', async ({ request, db }) => {
    test.setTimeout(300_000);
    const q = 'harbour bridge repairs follow once';
    const count = () => (db.prepare('SELECT count(*) AS n FROM follows').get() as { n: number }).n;
    const before = count();
    for (let i = 0; i < 100; i++) {
      const r = await request.get(`/api/follow?q=${encodeURIComponent(q)}&halfLifeDays=${i % 10 === 9 ? 'off' : i + 1}`, {
        headers: { 'x-forwarded-for': `10.9.1.${i % 2}` },
      });
      expect(r.status(), await r.text()).toBe(200);
    }
    expect(count() - before).toBe(1);
  });

  test('bad parameters are a 400 with the reason, not a broken feed', async ({ request }) => {
    const r = await request.get('/api/follow?q=', { headers: { 'x-forwarded-for': '10.9.0.3' } });
    expect(r.status()).toBe(400);
    // The search's own error for the same mistake (GET /api/search?q= gives it too).
    const { error } = await r.json();
    expect(error.code).toBe('QUERY_EMPTY');
    expect(error.message).toContain('the query (q) is empty');
    const long = await request.get(`/api/follow?q=${'a'.repeat(1001)}&halfLifeDays=-1`, { headers: { 'x-forwarded-for': '10.9.0.3' } });
    expect(long.status()).toBe(400);
    expect((await long.json()).error.code).toBe('QUERY_TOO_LONG');
  });
});

test.describe('export with provenance', () => {
  const q = `/api/export?q=${encodeURIComponent('harbour bridge closed for repairs')}&asOf=2024-06-01&to=2024-06-01&k=5`;

  test('CSV: a header row and one row per passage with date origin, evidence and scores; formula cells neutralised', async ({
    request,
  }) => {
    const r = await request.get(`${q}&format=csv`, { headers: { 'x-forwarded-for': '10.9.1.1' } });
    expect(r.status()).toBe(200);
    expect(r.headers()['content-type']).toContain('text/csv');
    expect(r.headers()['content-disposition']).toMatch(
      /^attachment; filename="quin-harbour-bridge-closed-for-repairs-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await r.text();
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual([
      'rank',
      'title',
      'source',
      'url',
      'publishedAt',
      'publishedAtSource',
      'fetchedAt',
      'textSource',
      'feedUrl',
      'snippet',
      'evidence',
      'stance',
      'stanceConfidence',
      'score',
      'bm25',
      'dense',
      'rerank',
      'recency',
      'articleId',
      'snippetId',
    ]);
    expect(rows.length).toBeGreaterThan(0);
    const col = (name: string) => header!.indexOf(name);
    const harbour = rows.find((r) => r[col('title')] === 'Harbour bridge to close for repairs, council confirms')!;
    expect(harbour[col('source')]).toBe('Metro Herald');
    expect(harbour[col('publishedAt')]).toBe('2019-03-01T09:00:00.000Z');
    expect(harbour[col('publishedAtSource')]).toBe('import');
    expect(harbour[col('evidence')]).toContain('harbour bridge');
    expect(Number(harbour[col('score')])).toBeGreaterThan(0);
    expect(rows.every((r) => r.length === header!.length)).toBe(true);
  });

  test("JSON: the documented schema, the verdict, each result's stance when the model read it", async ({ request, state }) => {
    const r = await request.get(`/api/export?q=${encodeURIComponent(CLAIM)}&k=5&format=json`, {
      headers: { 'x-forwarded-for': '10.9.1.2' },
    });
    expect(r.status()).toBe(200);
    const doc = exportResponse.strict().parse(await r.json());
    expect(doc.query).toBe(CLAIM);
    expect(doc.searchUrl).toMatch(/\/search\?q=The\+harbour\+bridge\+will\+close\+for\+repairs&k=5$/);
    expect(doc.results.length).toBeGreaterThan(0);
    if (state.nliModel) {
      expect(doc.verdict).not.toBeNull();
      expect(doc.results.some((x) => x.stance !== null)).toBe(true);
    }
  });
});

test.describe('stories and published fact-checks', () => {
  test('stories: the schema, first and latest report, sources, a timeline', async ({ request }) => {
    const r = await request.get(`/api/stories?q=${encodeURIComponent('harbour bridge closed for repairs')}&asOf=2024-06-01&to=2024-06-01`, {
      headers: { 'x-forwarded-for': '10.9.2.1' },
    });
    expect(r.status()).toBe(200);
    const body = storiesResponse.strict().parse(await r.json());
    expect(body.stories.length).toBeGreaterThan(0);
    const harbour = body.stories.find((s) => s.articles.some((a) => a.source === 'Metro Herald'))!;
    expect(harbour.first.publishedAt! <= harbour.latest.publishedAt!).toBe(true);
    expect(harbour.sources.map((s) => s.name)).toContain('Metro Herald');
    expect(body.coverage.points.length).toBeGreaterThan(0);
  });

  test("fact-checks found by crawling a fact-checker's feed and by importing saved pages", async ({ request, adminApi, state, db }) => {
    test.setTimeout(180_000);
    const add = await adminApi.request.post('/api/feeds', { headers: adminApi.headers, data: { url: state.factCheckFeedUrl } });
    expect([201, 409]).toContain(add.status());
    await expect
      .poll(() => (db.prepare('SELECT count(*) AS n FROM claim_reviews').get() as { n: number }).n, { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2);
    const dir = path.join(ROOT, 'crawler', 'testdata', 'claimreview');
    expect(quin(['import', 'html', path.join(dir, 'array.html')], cliEnv(state), () => undefined).ok).toBe(true);

    const get = async (claim: string) => {
      const res = await request.get(`/api/fact-checks?q=${encodeURIComponent(claim)}`, { headers: { 'x-forwarded-for': '10.9.2.2' } });
      expect(res.status()).toBe(200);
      return factChecksResponse.strict().parse(await res.json()).factChecks;
    };
    const crawled = await get('Repairs to the harbour bridge would cost forty million pounds');
    expect(crawled[0]).toMatchObject({
      claim: 'The harbour bridge repairs will cost forty million pounds',
      rating: 'Incorrect: the council puts the cost at about four million pounds',
      reviewer: 'Coast Fact',
      reviewUrl: 'https://coastfact.example/2019/harbour-bridge-repair-cost/',
      claimant: 'Councillor Jane Rivers',
    });
    const imported = await get('Is it true that the town library will close at five during exam season?');
    expect(imported.map((f) => f.rating)).toEqual(['Pants on Fire!']);
    expect(await get('Tidal lagoon wins planning approval')).toEqual([]);

    // Only for the same claim: the same person, number and event.
    expect(
      quin(['import', 'html', path.join(ROOT, 'e2e', 'fixtures', 'claimreview', 'married-at-57.html')], cliEnv(state), () => undefined).ok,
    ).toBe(true);
    expect((await get('Hugh Grant married at 57')).map((f) => f.rating)).toEqual(['True']);
    expect(await get('Hugh Grant married at 67')).toEqual([]);
    expect(await get('Hugh Grant divorced at 57')).toEqual([]);
  });

  test('the OpenAPI document lists the new operations', async ({ request }) => {
    const doc = (await (await request.get('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(['/api/export', '/api/follow', '/api/stories', '/api/fact-checks'].map((p) => doc.paths[p]?.get?.operationId)).toEqual([
      'exportSearch',
      'followSearch',
      'stories',
      'factChecks',
    ]);
    expect(Object.keys(doc.paths['/api/auth/logout']!.post!)).toContain('requestBody');
  });
});
