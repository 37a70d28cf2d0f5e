import type { APIResponse } from '@playwright/test';
import { searchResponse } from '../../app/api/search/schema';
import { expect, test } from '../support/fixtures';

const CLAIM = 'A deficiency of folate increases blood levels of homocysteine.';

test.describe('GET /api/search', () => {
  test('ranks the cited abstract first-page for a SciFact claim, with evidence offsets inside the text', async ({ request }) => {
    const r = await request.get('/api/search', { params: { q: CLAIM, k: 5 } });
    expect(r.status()).toBe(200);
    const body = searchResponse.parse(await r.json());
    expect(body.kind).toBe('claim');
    expect(body.results.length).toBe(5);
    const titles = body.results.map((x) => x.title);
    expect(titles.some((t) => /folic acid supplementation and serum homocysteine/i.test(t))).toBe(true);
    for (const res of body.results) {
      expect(res.evidence.length).toBeGreaterThan(0);
      for (const e of res.evidence) {
        expect(e.start).toBeGreaterThanOrEqual(0);
        expect(e.end).toBeLessThanOrEqual(res.text.length);
        expect(res.text.slice(e.start, e.end)).toBe(e.text);
      }
      expect(res.scores.final).toBeCloseTo(res.score, 6);
    }
    // Every field the handler returns is documented (the schema lists them all).
    expect(Object.keys(await r.json()).sort()).toEqual(expect.arrayContaining(Object.keys(body).sort()));
    for (const k of Object.keys((await r.json()).results[0])) expect(Object.keys(searchResponse.shape.results.element.shape)).toContain(k);
  });

  test('includes the verdict for claims when a model is configured, and none for questions', async ({ request, state }) => {
    const claim = searchResponse.parse(await (await request.get('/api/search', { params: { q: CLAIM } })).json());
    if (state.nliModel) {
      expect(claim.verdictStatus).toBe('ok');
      expect(claim.verdict).not.toBeNull();
      const v = claim.verdict!;
      expect(['SUPPORTED', 'REFUTED', 'MIXED', 'NOT_ENOUGH_EVIDENCE']).toContain(v.label);
      expect(v.confidence).toBeGreaterThanOrEqual(0);
      expect(v.confidence).toBeLessThanOrEqual(1);
      // A verdict never contradicts the evidence it shows.
      if (v.label === 'SUPPORTED' || v.label === 'MIXED') expect(v.evidence.supports.length).toBeGreaterThan(0);
      if (v.label === 'REFUTED' || v.label === 'MIXED') expect(v.evidence.refutes.length).toBeGreaterThan(0);
      for (const e of v.evidence.supports) expect(e.stance).toBe('supports');
      for (const e of v.evidence.refutes) expect(e.stance).toBe('refutes');
    } else {
      expect(claim.verdictStatus).toBe('no_model');
    }
    const question = searchResponse.parse(
      await (await request.get('/api/search', { params: { q: 'Does folate deficiency raise homocysteine?' } })).json(),
    );
    expect(question.kind).toBe('question');
    expect(question.verdict).toBeNull();
    expect(question.verdictStatus).toBe('question');
  });

  test('filters by date and source, and pages', async ({ request }) => {
    const all = searchResponse.parse(
      await (await request.get('/api/search', { params: { q: 'harbour bridge repairs', k: 10, halfLifeDays: 'off' } })).json(),
    );
    expect(all.results.map((r) => r.source)).toEqual(expect.arrayContaining(['Metro Herald', 'Coastal Gazette']));
    const from = searchResponse.parse(
      await (await request.get('/api/search', { params: { q: 'harbour bridge repairs', from: '2024-01-01', to: '2024-12-31' } })).json(),
    );
    expect(from.results.length).toBeGreaterThan(0);
    for (const r of from.results) expect(r.publishedAt! >= '2024-01-01').toBe(true);
    const src = searchResponse.parse(await (await request.get('/api/search?q=harbour+bridge+repairs&sources=Metro+Herald')).json());
    expect(src.results.map((r) => r.source)).toEqual(['Metro Herald']);
    const p1 = searchResponse.parse(await (await request.get('/api/search', { params: { q: 'cancer', k: 3, page: 1 } })).json());
    const p2 = searchResponse.parse(await (await request.get('/api/search', { params: { q: 'cancer', k: 3, page: 2 } })).json());
    expect(p2.page).toBe(2);
    expect(p1.results.map((r) => r.snippetId)).not.toEqual(expect.arrayContaining(p2.results.map((r) => r.snippetId)));
  });

  for (const [name, query, param, code] of [
    ['a missing query', '', 'q', 'QUERY_EMPTY'],
    ['a page size out of range', 'q=x&k=0', 'k', 'INVALID_INPUT'],
    ['a negative half-life', 'q=x&halfLifeDays=-3', 'halfLifeDays', 'INVALID_INPUT'],
    ['an impossible date', 'q=x&from=2024-02-31', 'from', 'INVALID_INPUT'],
    ['an unknown sort', 'q=x&sort=random', 'sort', 'INVALID_INPUT'],
  ] as const) {
    test(`answers ${name} with 400 and a readable message`, async ({ request }) => {
      const r = await request.get(`/api/search?${query}`);
      expect(r.status()).toBe(400);
      const body = await r.json();
      expect(body.error.code).toBe(code);
      expect(body.error.message).toContain(`(${param})`);
      // Plain words for people; the machine details (zod's) in issues.
      expect(body.error.message).not.toMatch(/Too (big|small)|expected|Invalid input/);
      expect(body.error.issues[0].path).toBe(param);
      expect(JSON.stringify(body)).not.toMatch(/node_modules|\bat .*:\d+:\d+/);
    });
  }

  test('a query with no searchable words is a 400 from the pipeline, not a crash', async ({ request }) => {
    const r = await request.get('/api/search', { params: { q: '"" ((( *** ' } });
    expect(r.status()).toBe(400);
    expect((await r.json()).error.code).toMatch(/^QUERY_/);
  });

  test('limits each client and says when to retry (429 + Retry-After)', async ({ request }) => {
    const client = { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 200) + 20}` };
    let limited: APIResponse | undefined;
    for (let i = 0; i < 200 && !limited; i++) {
      const r = await request.get('/api/search?q=', { headers: client });
      if (r.status() === 429) limited = r;
      else expect(r.status()).toBe(400);
    }
    expect(limited, 'the limit must be reached').toBeDefined();
    expect(Number(limited!.headers()['retry-after'])).toBeGreaterThan(0);
    expect((await limited!.json()).error.code).toBe('RATE_LIMITED');
    // Other clients are not affected.
    const other = await request.get('/api/search?q=', { headers: { 'x-forwarded-for': '198.51.100.9' } });
    expect(other.status()).toBe(400);
  });
});
