/**
 * Time decay across corpora of different ages (issue 20.4), on the demo's own corpora: BBC News'
 * technology articles (2004–05, undated), the HuffPost subset (2018) and Reuters-21578 (1987), imported
 * through the crawler's importer and indexed with the static encoder as `npm run demo` does. At the
 * default half-life the strongest match, an undated BBC article, must stay on the first page: it is
 * aged like the dated results it competes with (the 2018 items), not like the many 1987 wire stories
 * that share a word with the question.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW, importCorpus } from '../crawler';
import { closeSearchIndexes, openSearchIndexes, runIndex } from '../indexer';
import { createTestDb, type TestDb } from '../testing/db';
import { SHARED_MISSING, sharedData } from '../testing/shared-data';
import { rankingOptions, type SearchContext } from '../ranking/context';
import { search } from '../ranking/pipeline';

const news = sharedData('news');
const NOW = new Date('2026-11-20T00:00:00Z');

describe.skipIf(!news)(`undated text among corpora of different ages (demo corpora)${news ? '' : `: ${SHARED_MISSING}`}`, () => {
  let t: TestDb;
  let ctx: SearchContext;

  beforeAll(async () => {
    t = await createTestDb({ encoder: 'static' });
    const window = DEFAULT_WINDOW;
    const load = (format: string, p: string) => importCorpus(t.db, format, p, { window, progress: false });
    await load('bbc', path.join(news!, 'bbc', 'tech'));
    await load('huffpost', path.join(news!, 'huffpost', 'news_category_subset.json'));
    // All of it: with half of Reuters the old yardstick (the median age of every dated match) still
    // happened to keep the article on the first page.
    await load('reuters', path.join(news!, 'reuters21578'));
    await runIndex(t.db, t.config, { progress: false });
    ctx = {
      indexes: await openSearchIndexes(t.config, t.db),
      db: t.db,
      provider: t.provider,
      options: rankingOptions(t.config),
      now: () => NOW,
    };
  }, 600_000);

  afterAll(async () => {
    await closeSearchIndexes();
    await t?.cleanup();
  });

  it('"What is the World Community Grid?" finds its undated article in the top 3 at the default half-life', async () => {
    const res = await search({ q: 'What is the World Community Grid?', k: 10 }, ctx);
    expect(res.halfLifeDays).toBe(365);
    const i = res.results.findIndex((r) => r.title === 'Computer grid to help the world');
    expect(i).toBeGreaterThanOrEqual(0);
    expect(i).toBeLessThan(3);
    const grid = res.results[i]!;
    expect(grid.scores.recencyBasis).toBe('undated');
    // Aged like the 2018 results on the page (about 8–9 years), not like 1987's wire stories (39 years).
    expect(grid.scores.assumedAgeDays! / 365.25).toBeGreaterThan(8);
    expect(grid.scores.assumedAgeDays! / 365.25).toBeLessThan(9.5);
    expect(grid.scores.recency).toBeGreaterThan(1e-3);
    // Relevance decides among the page: every result above it is at least as relevant once aged alike.
    for (const r of res.results.slice(0, i)) expect(r.scores.relevance!).toBeGreaterThanOrEqual(grid.scores.relevance! * 0.5);
  });

  it('undated text does not crowd out the dated results: the first page still holds the relevant 2018 items', async () => {
    const res = await search({ q: 'Trump tariffs on steel imports', k: 10 }, ctx);
    const dated = res.results.filter((r) => r.publishedAt?.startsWith('2018'));
    expect(dated.length).toBeGreaterThanOrEqual(5);
    expect(res.results[0]!.publishedAt?.startsWith('2018')).toBe(true);
  });
});
