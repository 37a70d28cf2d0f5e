/** Saved fact-check pages through `quin import html`: articles with their published fact-checks, once. */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { importCorpus } from './index';

const dir = path.join(__dirname, '..', 'testdata', 'claimreview');
const window = { size: 5, stride: 3, minChars: 40 };

describe('import html', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => t.cleanup());

  it('stores each page under its canonical address with its ClaimReviews; importing again adds nothing', async () => {
    const first = await importCorpus(t.db, 'html', dir, { window, progress: false });
    expect(first).toMatchObject({ created: 4, empty: 0 });
    const reviews = await t.db.claimReview.findMany({
      include: { article: { select: { canonicalUrl: true, source: true } } },
      orderBy: { claim: 'asc' },
    });
    expect(reviews.map((r) => [r.claim, r.rating, r.article?.canonicalUrl])).toEqual([
      [
        'The harbour bridge repairs will cost forty million pounds',
        'Incorrect: the council puts the cost at about four million pounds',
        'https://coastfact.example/2019/harbour-bridge-repair-cost/',
      ],
      [
        'The island ferry service is being scrapped this winter',
        'Mostly false',
        'https://estuarychecks.example/fact-check/island-ferry-scrapped/',
      ],
      ['The library will stay open until ten in the evening during exams', 'True', 'https://librarymeter.example/checks/library-hours'],
      ['The tidal lagoon power plant was refused planning permission', 'False', 'https://checkdesk.example/tidal-lagoon-approval'],
      ['The town library will close at five during exam season', 'Pants on Fire!', 'https://librarymeter.example/checks/library-hours'],
    ]);
    expect(reviews[0]!.article?.source).toBe('Coast Fact');
    const again = await importCorpus(t.db, 'html', dir, { window, progress: false });
    expect(again).toMatchObject({ created: 0, unchanged: 4 });
    expect(await t.db.claimReview.count()).toBe(5);
    // Deleting the article deletes its fact-checks.
    await t.db.article.delete({ where: { canonicalUrl: 'https://checkdesk.example/tidal-lagoon-approval' } });
    expect(await t.db.claimReview.count()).toBe(4);
  });
});
