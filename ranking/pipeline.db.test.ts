/**
 * The search pipeline against the real parts: a migrated database (SQLite or PostgreSQL) and the
 * indexer's BM25 (FTS5) and dense (static encoder + FAISS) indexes. Articles and their snippet windows are
 * written here directly (ranking/ may not import crawler/), the way the crawler's store writes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSearchIndexes, openSearchIndexes, runIndex } from '../indexer';
import type { Db } from '../lib/db/client';
import { isQuinError } from '../lib/errors';
import { createTestDb, type TestDb } from '../testing/db';
import { rankingOptions, type SearchContext } from './context';
import { search } from './pipeline';
import { factorForAge } from './decay';
import type { RerankStage, VerdictStage } from './stages';
import type { SearchRequest, SearchResponse, SearchResult } from './types';

const ASOF = new Date('2024-06-01T00:00:00Z');
const daysAgo = (d: number) => new Date(ASOF.getTime() - d * 86_400_000);

interface Fixture {
  id: string;
  title: string;
  sentences: string[];
  source: string;
  publishedAt: Date | null;
}

function article(id: string, title: string, sentences: string[], source: string, publishedAt: Date | null): Fixture {
  return { id, title, sentences, source, publishedAt };
}

/** Windows of 5 sentences starting every 3rd sentence, as the crawler cuts them. */
async function seed(db: Db, articles: Fixture[]): Promise<void> {
  for (const a of articles) {
    const url = `https://news.example/${a.id}`;
    const text = a.sentences.join(' ');
    const created = await db.article.create({
      data: {
        canonicalUrl: url,
        originalUrl: url,
        title: a.title,
        source: a.source,
        publishedAt: a.publishedAt,
        publishedAtSource: a.publishedAt ? 'item' : 'unknown',
        fetchedAt: ASOF,
        contentHash: a.id,
        textSource: 'item_content',
        extractionStatus: 'ok',
        text,
        sentenceCount: a.sentences.length,
      },
    });
    const windows = [];
    for (let start = 0, position = 0; start < a.sentences.length; start += 3, position++) {
      const part = a.sentences.slice(start, start + 5);
      const spans: [number, number][] = [];
      let at = 0;
      for (const sentence of part) {
        spans.push([at, at + sentence.length]);
        at += sentence.length + 1;
      }
      windows.push({
        articleId: created.id,
        position,
        sentenceStart: start,
        sentenceEnd: start + part.length,
        text: part.join(' '),
        sentenceSpans: JSON.stringify(spans),
        title: a.title,
        source: a.source,
        publishedAt: a.publishedAt,
      });
    }
    await db.snippet.createMany({ data: windows });
  }
}

const FLOOD = [
  'Heavy monsoon rains flooded large parts of Pakistan this week.',
  'Officials said the floods displaced more than a million people.',
  'Rescue teams used boats to reach villages cut off by the water.',
];
const FLOOD_AGAIN = [
  'Monsoon floods returned to Pakistan this month, officials said.',
  'More than a million people were displaced by the floods again.',
  'Boats carried rescue teams to villages surrounded by water.',
];
const CONSOLE = [
  "Sony PlayStation 2's slimmer shape has proved popular with UK gamers, with 50,000 sold in its first week on sale.",
  "Sales have tripled since launch, outstripping Microsoft's Xbox, said market analysts Chart-Track.",
  'The numbers were also boosted by the release of the PS2-only game Grand Theft Auto: San Andreas.',
];
const ARTICLES = [
  // Two flood stories a year apart: the time decay must put the recent one first.
  article('flood-old', 'Floods in Pakistan', FLOOD, 'Daily Planet', daysAgo(400)),
  article('flood-new', 'Floods in Pakistan again', FLOOD_AGAIN, 'Daily Planet', daysAgo(10)),
  // One story under two URLs and two headlines (as in the BBC corpus): shown once.
  article('console-a', 'Slim PlayStation triples sales', CONSOLE, 'Tech Desk', daysAgo(20)),
  article('console-b', 'Slimmer PlayStation triple sales', CONSOLE, 'Tech Desk mirror', daysAgo(20)),
  article(
    'vaccine',
    'Measles vaccine study',
    [
      'A large study found no link between the measles vaccine and autism.',
      'Researchers followed more than 650,000 children in Denmark.',
      'The vaccine was safe and effective, the authors said.',
      'Public health officials welcomed the results.',
      'Vaccination rates had fallen in several countries.',
      'The study was published in a medical journal.',
      'Measles outbreaks have grown in recent years.',
    ],
    'Health Wire',
    daysAgo(30),
  ),
  article(
    'bank',
    'Central bank holds rates',
    ['The central bank kept interest rates unchanged on Thursday.', 'Inflation slowed to 2.4 percent in May.'],
    'Money Times',
    daysAgo(5),
  ),
  article(
    'space',
    'Rocket launch delayed',
    ['The rocket launch was delayed by strong winds.', 'Engineers will try again next week.'],
    'Daily Planet',
    daysAgo(2),
  ),
  article(
    'undated',
    'Flood defences explained',
    ['Flood defences protect towns from rivers.', 'Engineers build levees and barriers against floods.'],
    'Archive',
    null,
  ),
];

let t: TestDb;
let ctx: SearchContext;

beforeAll(async () => {
  t = await createTestDb();
  await seed(t.db, ARTICLES);
  await runIndex(t.db, t.config, { progress: false });
  ctx = {
    indexes: await openSearchIndexes(t.config, t.db),
    db: t.db,
    provider: t.provider,
    options: rankingOptions(t.config),
    now: () => ASOF,
  };
}, 240_000);

afterAll(async () => {
  await closeSearchIndexes();
  await t?.cleanup();
});

// The clock is fixed at ASOF (ctx.now). Not `asOf: ASOF`: that also bounds the publication date, which
// leaves undated text out (see the "as of" test).
const run = (req: Partial<SearchRequest> & { q: string }) => search(req, ctx);
const urls = (res: SearchResponse) => res.results.map((r) => r.url.replace('https://news.example/', ''));

describe('search pipeline (real indexes)', () => {
  it('finds the relevant article with evidence sentences whose offsets point into the text', async () => {
    const res = await run({ q: 'Is the measles vaccine linked to autism?' });
    expect(res.kind).toBe('question');
    expect(res.verdictStatus).toBe('question');
    expect(urls(res)[0]).toBe('vaccine');
    const top = res.results[0]!;
    expect(top.evidence.length).toBe(2);
    for (const e of top.evidence) expect(top.text.slice(e.start, e.end)).toBe(e.text);
    expect(top.evidence[0]!.text).toContain('autism');
    expect(top.scores.bm25).toBeGreaterThan(0);
    expect(top.scores.dense).not.toBeNull();
    expect(top.score).toBeCloseTo(top.scores.fused * top.scores.recency, 12);
    expect(top.scores.relevance).toBe(top.scores.fused);
    expect(res.models).toMatchObject({ bm25: 'fts5', reranker: null, nli: null, dense: true });
    expect(res.timingsMs.total).toBeGreaterThan(0);
  });

  it('ranks the recent copy of a story above the old one, and not when the decay is off', async () => {
    const decayed = await run({ q: 'floods displaced people in Pakistan', perArticle: 1 });
    expect(urls(decayed).slice(0, 2)).toEqual(['flood-new', 'flood-old']);
    const old = decayed.results.find((r) => r.url.endsWith('flood-old'))!;
    expect(old.scores.recency).toBeCloseTo(Math.pow(2, -400 / 365), 9);
    const off = await run({ q: 'floods displaced people in Pakistan', halfLifeDays: null });
    expect(off.halfLifeDays).toBeNull();
    for (const r of off.results) expect(r.scores.recency).toBe(1);
    // A half-life of one day leaves the 400-day-old copy with nothing but a sliver.
    const steep = await run({ q: 'floods displaced people in Pakistan', halfLifeDays: 1 });
    expect(steep.results.find((r) => r.url.endsWith('flood-old'))!.score).toBeLessThan(1e-100);
  });

  it('gives the same answer for the same asOf, whatever the clock says', async () => {
    const a = await run({ q: 'rocket launch delayed', asOf: ASOF });
    const b = await search({ q: 'rocket launch delayed', asOf: ASOF }, { ...ctx, now: () => new Date('2030-01-01') });
    expect(b.asOf).toBe(ASOF.toISOString());
    expect(b.results.map((r) => [r.snippetId, r.score])).toEqual(a.results.map((r) => [r.snippetId, r.score]));
  });

  it('filters by date range, age and source; undated snippets fail date filters', async () => {
    const q = 'floods';
    expect(urls(await run({ q, sources: ['Archive'] }))).toEqual(['undated']);
    const recent = urls(await run({ q, maxAgeDays: 100 }));
    expect(recent).toContain('flood-new');
    expect(recent).not.toContain('flood-old');
    expect(recent).not.toContain('undated');
    const range = urls(await run({ q, from: daysAgo(500), to: daysAgo(300) }));
    expect(range).toEqual(['flood-old']);
    expect(urls(await run({ q, sources: ['Nobody'] }))).toEqual([]);
  });

  // "As of" is the archive as it was that day: nothing published later, in either index.
  it('leaves out everything published after the "as of" day, by BM25 and by the dense index', async () => {
    const asOf = daysAgo(15).toISOString().slice(0, 10);
    const end = Date.parse(`${asOf}T23:59:59.999Z`);
    const q = 'floods displaced people in Pakistan';
    // Without the bound the 10-day-old flood story is found (so the bound has something to remove).
    expect(urls(await run({ q, perArticle: 0 }))).toContain('flood-new');
    for (const mode of ['hybrid', 'bm25', 'dense'] as const) {
      const res = await run({ q, asOf, mode, perArticle: 0, k: 50, sort: 'newest', coverage: true });
      expect(urls(res), mode).toContain('flood-old');
      expect(urls(res), mode).not.toContain('flood-new');
      for (const r of res.results)
        expect(r.publishedAt !== null && Date.parse(r.publishedAt) <= end, `${mode}: ${r.url} ${r.publishedAt}`).toBe(true);
      expect(res.coverageUndated, mode).toBe(0);
    }
    // An explicit later "to" does not lift the bound; an earlier one narrows it.
    expect(urls(await run({ q, asOf, to: ASOF }))).not.toContain('flood-new');
    // A filter keeps a subset, so no count grows when one is added; a future day is dropped, saying so.
    for (const query of ['floods', q, 'measles vaccine study children', 'people']) {
      const all = (await run({ q: query, perArticle: 0 })).total;
      for (const filter of [{ asOf }, { asOf: '2000-01-01' }, { sources: ['Daily Planet'] }, { maxAgeDays: 100 }, { from: daysAgo(500) }])
        expect((await run({ q: query, perArticle: 0, ...filter })).total, `${query} ${JSON.stringify(filter)}`).toBeLessThanOrEqual(all);
    }
    const future = await run({ q, asOf: '2099-01-01' });
    expect(future.warnings).toEqual(['the "as of" date 2099-01-01 is in the future: searched as of now (2024-06-01)']);
    expect(future.total).toBe((await run({ q })).total);
    expect(urls(await run({ q: 'measles vaccine autism', asOf, to: daysAgo(40) }))).not.toContain('vaccine');
  });

  it('leaves out the excluded articles (the article being checked)', async () => {
    const all = await run({ q: 'rocket launch delayed by strong winds' });
    const space = all.results.find((r) => r.url.endsWith('space'))!;
    const without = await run({ q: 'rocket launch delayed by strong winds', exclude: [space.articleId] });
    expect(without.results.map((r) => r.articleId)).not.toContain(space.articleId);
    expect(without.results.flatMap((r) => r.duplicates ?? []).map((d) => d.articleId)).not.toContain(space.articleId);
  });

  it('de-duplicates per article, pages, and sorts by date', async () => {
    const all = await run({ q: 'measles vaccine study children', perArticle: 0, k: 50, mode: 'bm25' });
    const vaccineSnippets = all.results.filter((r) => r.url.endsWith('vaccine'));
    expect(vaccineSnippets.length).toBe(3); // 7 sentences: windows at 0, 3, 6
    const one = await run({ q: 'measles vaccine study children', perArticle: 1, k: 50, mode: 'bm25' });
    expect(one.results.filter((r) => r.url.endsWith('vaccine')).length).toBe(1);
    const p1 = await run({ q: 'floods', k: 1, page: 1 });
    const p2 = await run({ q: 'floods', k: 1, page: 2 });
    expect(p1.total).toBe(p2.total);
    expect(p2.results[0]!.snippetId).not.toBe(p1.results[0]!.snippetId);
    const newest = await run({ q: 'floods', sort: 'newest', k: 10 });
    const dates = newest.results.map((r) => r.publishedAt ?? '');
    expect(dates.filter(Boolean)).toEqual([...dates.filter(Boolean)].sort().reverse());
    expect(newest.results.at(-1)!.publishedAt).toBeNull();
  });

  it('reads the same candidates through raw SQL and through the generated client', async () => {
    const fast = await run({ q: 'floods', perArticle: 0, k: 20 });
    const typed = await search({ q: 'floods', perArticle: 0, k: 20 }, { ...ctx, provider: undefined });
    expect(fast.results.length).toBeGreaterThanOrEqual(3);
    expect(fast.results).toEqual(typed.results);
  });

  it('runs one index alone on request', async () => {
    const bm25 = await run({ q: 'central bank interest rates', mode: 'bm25' });
    expect(urls(bm25)[0]).toBe('bank');
    expect(bm25.results.every((r) => r.scores.dense === null)).toBe(true);
    const dense = await run({ q: 'central bank interest rates', mode: 'dense' });
    expect(dense.results.every((r) => r.scores.bm25 === null && r.scores.dense !== null)).toBe(true);
  });

  it('keeps reranked candidates above the rest and records the rerank score', async () => {
    // A stage that prefers older snippets: the opposite of what BM25 and the decay want.
    const preferOld: RerankStage = {
      id: 'prefer-old',
      depth: 2,
      async rerank(cands) {
        return cands.map((c) => ({
          rerank: c.publishedAt ? -c.publishedAt.getTime() : 0,
          relevance: c.publishedAt && c.publishedAt < daysAgo(100) ? 1 : 0.5,
        }));
      },
    };
    const res = await search(
      { q: 'floods displaced people in Pakistan', halfLifeDays: null, perArticle: 1 },
      { ...ctx, reranker: preferOld },
    );
    expect(res.models.reranker).toBe('prefer-old');
    expect(urls(res)[0]).toBe('flood-old');
    const reranked = res.results.filter((r) => r.scores.rerank !== null);
    expect(reranked.length).toBeLessThanOrEqual(2);
    expect(res.results.slice(0, reranked.length).every((r) => r.scores.rerank !== null)).toBe(true);
    const off = await search({ q: 'floods displaced people in Pakistan', rerank: false }, { ...ctx, reranker: preferOld });
    expect(off.models.reranker).toBeNull();
  });

  it('reranks no deeper than the request asks (rerankDepth), never deeper than the stage’s own depth', async () => {
    const read: number[] = [];
    const counting: RerankStage = {
      id: 'counting',
      depth: 2,
      async rerank(cands) {
        read.push(cands.length);
        return cands.map(() => ({ rerank: 0, relevance: 1 }));
      },
    };
    const q = 'floods displaced people in Pakistan';
    await search({ q, perArticle: 0, rerankDepth: 1 }, { ...ctx, reranker: counting });
    await search({ q, perArticle: 0, rerankDepth: 50 }, { ...ctx, reranker: counting });
    expect(read).toEqual([1, 2]);
  });

  it('reports verdict status for claims without a model, and coverage per week', async () => {
    const res = await run({ q: 'Floods displaced a million people in Pakistan', coverage: true });
    expect(res.kind).toBe('claim');
    expect(res.verdictStatus).toBe('no_model');
    expect(res.coverage!.length).toBeGreaterThan(50); // from 400 days ago to 10 days ago, weekly
    expect(res.coverage!.reduce((n, w) => n + w.articles, 0)).toBeGreaterThanOrEqual(2);
  });

  // The relevance floor: only real matches are results, and nonsense matches nothing.
  it('finds nothing for nonsense, with no verdict, although the dense index returns neighbours', async () => {
    const judged: SearchResult[][] = [];
    const stage: VerdictStage = {
      id: 'spy',
      depth: 5,
      verdict: async (results) => (
        judged.push(results),
        { label: 'NOT_ENOUGH_EVIDENCE', confidence: 1, evidence: { supports: [], refutes: [], neutral: [] }, model: 'spy' }
      ),
    };
    const nonsense = await search({ q: 'xqzvbnm plorf wuggle', coverage: true }, { ...ctx, verdict: stage });
    expect(nonsense).toMatchObject({ total: 0, results: [], verdict: null, coverage: [], coverageUndated: 0 });
    expect(nonsense.models.dense).toBe(true);
    const claim = await search({ q: 'Xqzvbnm plorf wuggled the zorbing frimbles yesterday' }, { ...ctx, verdict: stage });
    expect(claim).toMatchObject({ kind: 'claim', total: 0, verdict: null, verdictStatus: 'no_match' });
    expect(judged).toEqual([]);
  });

  it('counts, sorts newest first and charts only passages that match', async () => {
    const newest = await run({ q: 'central bank interest rates', sort: 'newest', coverage: true });
    // The rocket story (2 days old, the newest in the archive) is a dense neighbour, not a match.
    expect(urls(newest)).toEqual(['bank']);
    expect(newest.total).toBe(1);
    expect(newest.coverage!.reduce((n, w) => n + w.articles, 0)).toBe(1);
    const all = await run({ q: 'floods' });
    const filtered = await run({ q: 'floods', sources: ['Daily Planet'] });
    expect(filtered.total).toBeLessThanOrEqual(all.total);
    expect(urls(filtered).sort()).toEqual(['flood-new', 'flood-old']);
    const undated = await run({ q: 'floods', coverage: true });
    expect(undated.coverageUndated).toBe(1); // "Flood defences explained" has no date: said, not silently dropped
  });

  // One story, once: near-duplicate passages under other URLs are one result.
  it('collapses the same story under two URLs into one result that lists the other source', async () => {
    const res = await run({ q: 'slimmer PlayStation sales tripled', k: 10, coverage: true });
    const consoles = res.results.filter((r) => r.url.includes('console-'));
    expect(consoles).toHaveLength(1);
    expect(consoles[0]!.duplicates!.map((d) => d.url.replace('https://news.example/', ''))).toEqual([
      urls(res).includes('console-a') ? 'console-b' : 'console-a',
    ]);
    expect(consoles[0]!.duplicates![0]).toMatchObject({
      title: expect.stringContaining('PlayStation'),
      source: expect.stringMatching(/^Tech Desk/),
    });
    expect(res.total).toBe(res.results.length);
    expect(res.coverage!.reduce((n, w) => n + w.articles, 0)).toBe(1);
    // The verdict reads the story once.
    const judged: SearchResult[][] = [];
    const stage: VerdictStage = {
      id: 'spy',
      depth: 5,
      verdict: async (results) => (
        judged.push(results),
        { label: 'SUPPORTED', confidence: 0.9, evidence: { supports: [], refutes: [], neutral: [] }, model: 'spy' }
      ),
    };
    const claim = await search({ q: 'Sales of the slimmer PlayStation tripled' }, { ...ctx, verdict: stage });
    expect(claim.verdictStatus).toBe('ok');
    expect(judged[0]!.filter((r) => r.url.includes('console-'))).toHaveLength(1);
  });

  // Verdicts only for claims.
  it('gives keywords and questions evidence but no verdict; claims get one', async () => {
    let calls = 0;
    const stage: VerdictStage = {
      id: 'spy',
      depth: 5,
      verdict: async () => (
        calls++,
        { label: 'SUPPORTED', confidence: 0.9, evidence: { supports: [], refutes: [], neutral: [] }, model: 'spy' }
      ),
    };
    const vctx = { ...ctx, verdict: stage };
    const keywords = await search({ q: 'PlayStation sales' }, vctx);
    expect(keywords).toMatchObject({ kind: 'keywords', verdict: null, verdictStatus: 'keywords' });
    expect(keywords.results.length).toBeGreaterThan(0);
    const question = await search({ q: 'Did PlayStation sales triple?' }, vctx);
    expect(question).toMatchObject({ kind: 'question', verdict: null, verdictStatus: 'question' });
    expect(calls).toBe(0);
    const claim = await search({ q: 'PlayStation sales tripled after the slimmer model launched' }, vctx);
    expect(claim).toMatchObject({ kind: 'claim', verdictStatus: 'ok', models: { nli: 'spy' } });
    expect(calls).toBe(1);
  });

  // Undated text under time decay: aged like the dated results it competes with.
  it('gives undated text the age of the dated results it competes with (here every dated match), and says so', async () => {
    const res = await run({ q: 'floods', perArticle: 1, k: 10 });
    const undated = res.results.find((r) => r.url.endsWith('undated'))!;
    const dated = res.results.filter((r) => r.publishedAt).map((r) => (ASOF.getTime() - Date.parse(r.publishedAt!)) / 86_400_000);
    const median =
      [...dated].sort((a, b) => a - b)[(dated.length - 1) >> 1]! / 2 + [...dated].sort((a, b) => a - b)[dated.length >> 1]! / 2;
    expect(undated.scores).toMatchObject({ recencyBasis: 'undated', assumedAgeDays: Math.round(median * 10) / 10 });
    expect(undated.scores.recency).toBeCloseTo(factorForAge(median, 365), 9);
    expect(undated.scores.recency).toBeLessThan(1);
    // A one-week half-life: the 10-day-old story outranks undated text.
    const week = await run({ q: 'floods', halfLifeDays: 7 });
    expect(urls(week).indexOf('flood-new')).toBeLessThan(urls(week).indexOf('undated'));
    const off = await run({ q: 'floods', halfLifeDays: null });
    expect(off.results.every((r) => r.scores.recencyBasis === 'off' && r.scores.recency === 1)).toBe(true);
  });

  // "Why this result" adds up: relevance × recency = final.
  it('breaks every final score into factors whose product is the final score', async () => {
    const boost: RerankStage = {
      id: 'boost',
      depth: 3,
      rerank: async (cands) => cands.map((c, i) => ({ rerank: 5 - i, relevance: 0.9 - i * 0.1 })),
    };
    const res = await search({ q: 'floods displaced people in Pakistan', k: 10 }, { ...ctx, reranker: boost });
    for (const r of res.results) {
      expect(r.scores.final).toBeCloseTo(r.scores.relevance! * r.scores.recency, 12);
      expect(r.score).toBe(r.scores.final);
      if (r.scores.rerank === null) expect(r.scores.relevance).toBe(r.scores.fused);
    }
    expect(res.results.some((r) => r.scores.rerank !== null && r.scores.relevance !== r.scores.fused)).toBe(true);
  });

  it('fails with INDEX_UNAVAILABLE when BM25 fails underneath, leaving nothing unhandled behind', async () => {
    const unhandled: unknown[] = [];
    const note = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', note);
    const bm25 = Object.create(ctx.indexes.bm25) as typeof ctx.indexes.bm25;
    bm25.search = () => Promise.reject(new Error('disk I/O error'));
    try {
      await expect(search({ q: 'flood defences' }, { ...ctx, indexes: { ...ctx.indexes, bm25 } })).rejects.toMatchObject({
        code: 'INDEX_UNAVAILABLE',
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', note);
    }
    expect(unhandled).toEqual([]);
  });

  it('answers any string with results or a QUERY_*/INVALID_INPUT error, never an SQLite or FAISS exception', async () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const pieces = [
      'flood',
      'AND',
      'OR',
      'NOT',
      'NEAR/3',
      '"',
      "'",
      '*',
      '(',
      ')',
      ':',
      '^',
      '-',
      '+',
      '{',
      '}',
      '\u0000',
      '\uD800',
      '😀',
      'ß',
      'İ',
      '東京',
      '\u202e',
      '?',
      ' ',
      'x'.repeat(60),
      'col:x',
      'rank',
      'MATCH',
    ];
    const inputs = [
      ...Array.from({ length: 120 }, () =>
        Array.from({ length: 1 + Math.floor(rand() * 12) }, () => pieces[Math.floor(rand() * pieces.length)]).join(rand() < 0.5 ? ' ' : ''),
      ),
      '',
      ' ',
      'a'.repeat(5000),
    ];
    for (const q of inputs) {
      try {
        const res = await run({ q, k: 5 });
        expect(Array.isArray(res.results)).toBe(true);
      } catch (e) {
        expect(isQuinError(e) && (e.code.startsWith('QUERY_') || e.code === 'INVALID_INPUT'), `${JSON.stringify(q)}: ${String(e)}`).toBe(
          true,
        );
      }
    }
  });
});

// A long-running process (the web server) opened its indexes before the worker built the
// dense index; it must use the dense index as soon as the first checkpoint exists, without a restart.
describe('a search context opened before the dense index exists', () => {
  let u: TestDb;
  beforeAll(async () => {
    u = await createTestDb();
    await seed(u.db, ARTICLES.slice(0, 4));
  }, 240_000);
  afterAll(async () => {
    await closeSearchIndexes();
    await u?.cleanup();
  });

  it('answers BM25 only while it is empty, then uses it once the indexer has built it', async () => {
    const uctx: SearchContext = {
      indexes: await openSearchIndexes(u.config, u.db),
      db: u.db,
      provider: u.provider,
      options: rankingOptions(u.config),
      now: () => ASOF,
    };
    const before = await search({ q: 'floods displaced people in Pakistan' }, uctx);
    expect(before.models.dense).toBe(false);
    expect(before.warnings).toEqual(['dense index not built yet: BM25 only']);
    // (With PostgreSQL, BM25 lives in a file the indexer fills: no results at all yet.)
    expect(before.results.every((r) => r.scores.dense === null)).toBe(true);
    await runIndex(u.db, u.config, { progress: false });
    await new Promise((r) => setTimeout(r, 3100)); // readers re-check the checkpoint every 3 s
    const after = await search({ q: 'floods displaced people in Pakistan' }, uctx);
    expect(after.models.dense).toBe(true);
    expect(after.warnings).toBeUndefined();
    expect(after.results[0]!.scores.dense).not.toBeNull();
  }, 240_000);
});
