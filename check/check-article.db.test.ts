/**
 * An article checked as a reader meets it: a real page served from a local HTTP server, fetched
 * through the crawler's guarded client, its claims checked by the real search pipeline (FTS5, FAISS,
 * the reranker and the verdict model this repository ships) over a real database. Hostile input —
 * a huge page, binary, a private address, a slow server, too much text — gets a clear error, nothing
 * is searched and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW, storeArticles, type ArticleInput } from '../crawler';
import { closeSearchIndexes, runIndex } from '../indexer';
import { isQuinError } from '../lib/errors';
import { openSearchContext, search, type SearchContext } from '../ranking';
import { TEST_CRAWLER_OVERRIDES } from '../testing/crawler';
import { createTestDb, type TestDb } from '../testing/db';
import { hang, hugeBody, send, startTestServer, type TestServer } from '../testing/http-server';
import { checkArticle, type CheckDeps } from './check-article';
import type { CheckEvent } from './schema';

const story = (id: string, title: string, text: string, publishedAt: string | null): ArticleInput => ({
  canonicalUrl: `https://coverage.example/${id}`,
  originalUrl: `https://coverage.example/${id}`,
  title,
  source: 'Coverage Wire',
  publishedAt: publishedAt ? new Date(publishedAt) : null,
  publishedAtSource: publishedAt ? 'item' : 'unknown',
  fetchedAt: new Date('2024-06-10T00:00:00Z'),
  textSource: 'import',
  extractionStatus: 'ok',
  text,
});

// Our own fixtures: a made-up port and its coverage.
const COVERAGE = [
  story(
    'kessling-record',
    'Port of Kessling has a record year',
    'The Port of Kessling handled 4.2 million containers in 2023. The port employs 3,400 people on the Baltic coast. ' +
      'Chief executive Marta Olsen said a new terminal would open in March 2026.',
    '2024-03-01T09:00:00Z',
  ),
  story(
    'kessling-later',
    'Kessling terminal delayed',
    'The new terminal at the Port of Kessling will not open until 2028, the port said. Marta Olsen blamed rising costs.',
    '2024-05-20T09:00:00Z',
  ),
  story(
    'weather',
    'Storm closes roads',
    'A storm closed roads across the region on Monday. Snow fell for two days.',
    '2024-02-01T09:00:00Z',
  ),
];

const PAGE_TEXT = [
  'The Port of Kessling handled 4.2 million containers in 2023.',
  'It employs 3,400 people and is the largest port on the Baltic coast.',
  'Chief executive Marta Olsen said the new terminal would open in March 2026.',
  'Is this the start of a new era?',
  'Sign up for our newsletter.',
];
const page = (paragraphs: string[], date = '2024-03-02T08:00:00Z') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Kessling port sets record</title>` +
  `<meta property="article:published_time" content="${date}"></head><body><nav>Home · World</nav>` +
  `<article><h1>Kessling port sets record</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</article></body></html>`;

let t: TestDb;
let ctx: SearchContext;
let server: TestServer;
let deps: CheckDeps;
let searched: string[];

async function events(request: unknown, d: Partial<CheckDeps> = {}): Promise<CheckEvent[]> {
  const out: CheckEvent[] = [];
  for await (const e of checkArticle(request, { ...deps, ...d })) out.push(e);
  return out;
}

async function failure(request: unknown, d: Partial<CheckDeps> = {}) {
  try {
    await events(request, d);
  } catch (e) {
    if (isQuinError(e)) return e;
    throw e;
  }
  throw new Error('the check did not fail');
}

beforeAll(async () => {
  t = await createTestDb(TEST_CRAWLER_OVERRIDES);
  server = await startTestServer({
    '/robots.txt': send('User-agent: *\nDisallow: /private/\n'),
    '/news/kessling': send(page(PAGE_TEXT), { type: 'text/html; charset=utf-8' }),
    '/news/opinions': send(page(['What a day it was!', 'I think we should all be proud.', 'Why does nobody listen?']), {
      type: 'text/html; charset=utf-8',
    }),
    '/news/huge': hugeBody(3 * 1024 * 1024, { type: 'text/html' }),
    '/news/binary': send(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), { type: 'application/octet-stream' }),
    '/news/binary-as-html': send(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), { type: 'text/html' }),
    '/news/slow': hang,
    '/private/page': send(page(PAGE_TEXT), { type: 'text/html' }),
  });
  // The checked page is also stored (a crawler found it before): it must not count as evidence for itself.
  const self = { ...story('self', 'Kessling port sets record', PAGE_TEXT.join(' '), '2024-03-02T08:00:00Z') };
  self.canonicalUrl = self.originalUrl = server.url('/news/kessling');
  await storeArticles(t.db, [...COVERAGE, self], DEFAULT_WINDOW);
  await runIndex(t.db, t.config, { progress: false });
  ctx = await openSearchContext(t.config, t.db);
  deps = {
    config: t.config,
    db: t.db,
    runSearch: (r) => {
      searched.push(String(r.q));
      return search(r, ctx);
    },
  };
}, 240_000);

afterAll(async () => {
  await closeSearchIndexes();
  await server?.close();
  await t?.cleanup();
});

describe('checkArticle', () => {
  it('checks a page claim by claim: the article, then each claim in reading order, then the summary', async () => {
    searched = [];
    const out = await events({ url: server.url('/news/kessling') });
    expect(out.map((e) => e.type)).toEqual(['article', 'claim', 'claim', 'claim', 'done']);
    const start = out[0] as Extract<CheckEvent, { type: 'article' }>;
    expect(start.article).toMatchObject({
      title: 'Kessling port sets record',
      publishedAt: '2024-03-02T08:00:00.000Z',
      publishedFrom: 'meta',
    });
    // As of the article's day: the later coverage (2024-05-20) is left out; the stored copy of the page too.
    expect(start.asOf).toBe('2024-03-02');
    expect(start.excludedArticles.length).toBe(1);
    expect(start.sentences.map((s) => s.skipped)).toEqual([null, null, null, 'question', 'boilerplate']);
    const claims = out.filter((e) => e.type === 'claim').map((e) => e.claim);
    expect(claims.map((c) => c.sentence)).toEqual([0, 1, 2]);
    // The compound sentence was checked part by part, each part as its own search.
    expect(claims[1]!.parts.length).toBe(2);
    expect(claims[1]!.results.map((r) => r.text)).toEqual(claims[1]!.parts);
    expect(searched.length).toBe(claims.reduce((n, c) => n + c.parts.length, 0));
    for (const c of claims)
      for (const r of c.results) {
        for (const s of r.sources) {
          expect(s.url).not.toBe(server.url('/news/kessling'));
          expect(s.url).not.toContain('kessling-later');
        }
      }
    // The record year is in the coverage of the day before: found, with its source and date.
    expect(claims[0]!.results[0]!.sources[0]).toMatchObject({ url: 'https://coverage.example/kessling-record', source: 'Coverage Wire' });
    const done = out.at(-1) as Extract<CheckEvent, { type: 'done' }>;
    expect(done.summary).toMatchObject({ claims: 3, parts: 4, sentences: 5, skipped: { question: 1, boilerplate: 1 } });
    expect(done.summary.supported + done.summary.refuted + done.summary.notSettled).toBe(3);
    expect(done.summary.firstVerdictSeconds).toBeLessThanOrEqual(done.summary.seconds);
  });

  it('reads later coverage too when asked, and checks pasted text with no date against all of it', async () => {
    const later = await events({ url: server.url('/news/kessling'), includeLater: true });
    expect((later[0] as Extract<CheckEvent, { type: 'article' }>).asOf).toBeNull();
    const terminal = later.find((e) => e.type === 'claim' && e.claim.sentence === 2) as Extract<CheckEvent, { type: 'claim' }>;
    expect(terminal.claim.results.flatMap((r) => r.sources.map((s) => s.url))).toContain('https://coverage.example/kessling-later');
    const pasted = await events({ text: PAGE_TEXT.slice(0, 2).join('\n'), title: 'Kessling port sets record' });
    const start = pasted[0] as Extract<CheckEvent, { type: 'article' }>;
    expect(start.article).toMatchObject({ url: null, publishedAt: null });
    expect(start.asOf).toBeNull();
    expect(start.claims[1]!.standalone).toMatch(/^Port of Kessling employs 3,400 people/);
  });

  it('says so when nothing in the text is check-worthy, and searches nothing', async () => {
    searched = [];
    const out = await events({ url: server.url('/news/opinions') });
    const start = out[0] as Extract<CheckEvent, { type: 'article' }>;
    expect(start.claims).toEqual([]);
    expect(start.warnings.join(' ')).toMatch(/no check-worthy sentence/);
    expect(out.map((e) => e.type)).toEqual(['article', 'done']);
    expect(searched).toEqual([]);
  });

  it('answers hostile input with a clear error, searching and storing nothing', async () => {
    searched = [];
    const before = await t.db.article.count();
    const cases: [unknown, string, RegExp][] = [
      [{ url: server.url('/news/huge') }, 'FETCH_TOO_LARGE', /paste the article's text/],
      [{ url: server.url('/news/binary') }, 'FETCH_CONTENT_TYPE', /not a web page/],
      [{ url: server.url('/news/binary-as-html') }, 'EXTRACTION_FAILED', /not a text page/],
      [{ url: server.url('/news/slow') }, 'FETCH_TIMEOUT', /did not answer in time/],
      [{ url: server.url('/private/page') }, 'FETCH_ROBOTS', /robots/],
      [{ url: 'file:///etc/passwd' }, 'FETCH_BLOCKED', /only http and https/],
      [{ text: 'x'.repeat(60_001) }, 'INVALID_INPUT', /60,001 characters long; at most 60,000/],
      [{ text: '   ' }, 'INVALID_INPUT', /give a URL or a text/],
      [{}, 'INVALID_INPUT', /give a URL or a text/],
      [{ url: 'https://example.org/a', text: 'Some text here.' }, 'INVALID_INPUT', /not both/],
    ];
    for (const [request, code, message] of cases) {
      const e = await failure(request);
      expect([request, e.code]).toEqual([request, code]);
      expect(e.message).toMatch(message);
    }
    expect(searched).toEqual([]);
    expect(await t.db.article.count()).toBe(before);
  });

  it('refuses a private address unless private hosts are allowed, without sending it a request', async () => {
    const asked = server.requests.length;
    const e = await failure({ url: server.url('/news/kessling') }, { config: { ...t.config, allowPrivateHosts: false } });
    expect(e.code).toBe('FETCH_BLOCKED');
    expect(server.requests.length).toBe(asked);
  });
});
