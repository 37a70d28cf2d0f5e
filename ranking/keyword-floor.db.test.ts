/**
 * The keyword rule of the relevance floor through the whole pipeline: a BM25 keyword match is never dropped from the hybrid list by
 * the relevance floor ("Backpage indictment" lists both Backpage stories, although one says "Indicted"
 * and so holds one word of two), while a passage sharing only the common word stays out, and nonsense
 * finds nothing. With quin-static, the distilled table whose nonsense reaches cosines near 0.9 (the
 * case that showed the need for the rule): its measured floor admits nothing by meaning alone, so only the keyword rule
 * can keep the second story — and the nonsense must not get through its cosines.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSearchIndexes, openSearchIndexes, runIndex } from '../indexer';
import { faissAvailable } from '../indexer/dense/faiss-native';
import { addArticle, TOPICS } from '../indexer/test-corpus';
import { projectRoot } from '../lib/paths';
import { createTestDb, type TestDb } from '../testing/db';
import { rankingOptions, type SearchContext } from './context';
import { search } from './pipeline';

const STORIES = [
  {
    key: 'seized',
    title: 'Feds Seize Backpage.com And Indict Founder In Prostitution Crackdown',
    sentences: [
      'Federal agents seized Backpage.com on Friday.',
      'The seizure relates to a sealed indictment alleging conspiracy to facilitate prostitution.',
    ],
  },
  {
    key: 'indicted',
    title: 'Backpage.com Founders Indicted For Facilitating Prostitution On Site',
    sentences: ['The federal government had seized the classifieds website days before.', 'Seven people were charged.'],
  },
  {
    key: 'stone',
    title: "Roger Stone Says He's Prepared For Mueller Indictment",
    sentences: ['The political operative said he expected to be charged.', 'He denied any wrongdoing.'],
  },
  {
    key: 'traders',
    title: 'Three traders indicted for insider trading',
    sentences: ['A federal grand jury returned the indictment on Monday.', 'The traders pleaded not guilty.'],
  },
];

let t: TestDb;
let ctx: SearchContext;
const keys = new Map<number, string>();

describe.skipIf(!faissAvailable())('relevance floor: keyword matches stay, nonsense goes', () => {
  beforeAll(async () => {
    t = await createTestDb({ encoder: 'static', encoderModel: path.join(projectRoot(), 'models', 'quin-static') });
    for (const a of [...TOPICS, ...STORIES]) keys.set((await addArticle(t.db, a)).articleId, a.key);
    await runIndex(t.db, t.config, { progress: false });
    const indexes = await openSearchIndexes(t.config, t.db);
    ctx = { indexes, db: t.db, provider: t.provider, options: rankingOptions(t.config, {}, indexes.encoder) };
  }, 120_000);
  afterAll(async () => {
    await closeSearchIndexes();
    await t?.cleanup();
  });

  const found = async (q: string) =>
    (await search({ q, halfLifeDays: null, k: 50 }, ctx)).results.map((r) => keys.get(r.articleId) ?? String(r.articleId));

  it('lists both Backpage stories, and not a story that shares only "indictment"', async () => {
    const res = await found('Backpage indictment');
    expect(res.sort()).toEqual(['indicted', 'seized']);
  });

  it('finds nothing for nonsense, although this table puts it close to everything', async () => {
    expect(ctx.indexes.encoder.id).toMatch(/^static:quin-static@/);
    expect(await found('qzxv plorbnak wuffle')).toEqual([]);
  });
});
