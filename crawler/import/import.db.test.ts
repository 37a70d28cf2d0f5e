/**
 * `quin import` formats: this project's small fixtures for the exact parsing, and the real corpora
 * in ../shared/data for the acceptance numbers (SciFact: one article per abstract, ~17,000 snippets;
 * Reuters: the 1987 dates). Importing twice adds nothing. Runs on SQLite and PostgreSQL.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { sharedData, SHARED_MISSING } from '../../testing/shared-data';
import { importCorpus } from '.';
import { parseReutersSgml, reflow } from './reuters';
import { DEFAULT_WINDOW } from '../text/snippets';
import fs from 'node:fs';

const fixture = (...p: string[]) => path.join(__dirname, '..', 'testdata', 'import', ...p);
const provider = process.env.QUIN_TEST_DB ?? 'sqlite';
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t?.cleanup());

const importOf = (format: string, p: string) =>
  importCorpus(t.db, format, p, {
    window: DEFAULT_WINDOW,
    progress: false,
  });

describe('Reuters SGML parsing', () => {
  const docs = parseReutersSgml(fs.readFileSync(fixture('reuters-sample.sgm'), 'latin1'));

  it('reads title, date, topics and a re-flowed body without the sign-off', () => {
    expect(docs[0]).toMatchObject({
      newId: '1',
      title: 'COCOA REVIEW FROM THE TEST SAMPLE',
      date: new Date('1987-02-26T15:01:01.790Z'),
      topics: ['cocoa'],
    });
    expect(docs[0]!.text).toBe(
      'Showers continued throughout the week in the cocoa zone, alleviating the drought since early January, a trader said in a weekly review.\n' +
        'The dry period means the harvest will be late this year. Arrivals for the week were 155,221 bags <of 60 kilos> & more.\n' +
        'Dr. Smith said spot prices rose to 340 to 350 cruzados.',
    );
  });

  it('reads unprocessed stories (first line as title) and dates with wire codes or a corrupt time', () => {
    expect(docs[1]).toMatchObject({
      newId: '2',
      title: 'FEDERAL RESERVE WEEKLY REPORT - MAR 27',
      date: new Date('1987-03-27T00:02:59.130Z'),
    });
    expect(docs[1]!.text.split('\n')).toHaveLength(3);
    expect(docs[2]).toMatchObject({ newId: '3', title: 'A BRIEF WITHOUT A BODY', text: '', date: new Date('1987-03-31T00:00:00Z') });
  });

  it('re-flows hard-wrapped lines', () => {
    expect(reflow('one\ntwo\n    three\nfour\n Reuter')).toBe('one two\nthree four');
  });
});

describe(`quin import (${provider})`, () => {
  it('imports Reuters with its 1987 dates, skips the briefs without text, and adds nothing the second time', async () => {
    const first = await importOf('reuters', fixture('reuters-sample.sgm'));
    expect(first).toMatchObject({ created: 2, empty: 1 });
    const a = await t.db.article.findUniqueOrThrow({ where: { canonicalUrl: 'corpus://reuters21578/1' } });
    expect(a).toMatchObject({
      source: 'Reuters',
      publishedAt: new Date('1987-02-26T15:01:01.790Z'),
      publishedAtSource: 'import',
      externalId: '1',
    });
    expect(await t.db.snippet.findFirstOrThrow({ where: { articleId: a.id } })).toMatchObject({
      publishedAt: new Date('1987-02-26T15:01:01.790Z'),
      source: 'Reuters',
    });
    expect(await importOf('reuters', fixture('reuters-sample.sgm'))).toMatchObject({ created: 0, updated: 0, unchanged: 2, snippets: 0 });
  });

  it('imports BBC text folders (first line the title, no dates, any charset)', async () => {
    expect(await importOf('bbc', fixture('bbc'))).toMatchObject({ created: 2 });
    expect(await t.db.article.findUniqueOrThrow({ where: { canonicalUrl: 'corpus://bbc/tech/002' } })).toMatchObject({
      title: 'Café chain goes online',
      publishedAt: null,
      publishedAtSource: 'unknown',
      source: 'BBC News',
    });
    expect(await importOf('bbc', fixture('bbc'))).toMatchObject({ created: 0, unchanged: 2 });
  });

  it('imports HuffPost records with their link, author and day', async () => {
    expect(await importOf('huffpost', fixture('huffpost-sample.jsonl'))).toMatchObject({ created: 2 });
    const a = await t.db.article.findUniqueOrThrow({ where: { canonicalUrl: 'https://www.huffingtonpost.com/entry/short_us_1' } });
    expect(a).toMatchObject({
      title: 'A short one',
      text: 'A short one.\nIt still tells a story in one sentence.',
      publishedAt: new Date('2018-05-25T00:00:00Z'),
      source: 'HuffPost',
    });
    expect((await t.db.article.findFirstOrThrow({ where: { source: 'HuffPost', author: 'Melissa Jeltsen' } })).text).toMatch(
      /^There Were 2 Mass Shootings In Texas Last Week, But Only 1 On TV\.\nShe left/,
    );
  });

  it('takes the folder a HuffPost file ships in (as bbc does), not only the file', async () => {
    const dir = fs.mkdtempSync(path.join(t.dataDir, 'huffpost-'));
    fs.copyFileSync(fixture('huffpost-sample.jsonl'), path.join(dir, 'news_category_subset.json'));
    fs.writeFileSync(path.join(dir, 'README.md'), 'not a record');
    expect(await importOf('huffpost', dir)).toMatchObject({ created: 0, unchanged: 2 });
    const empty = fs.mkdtempSync(path.join(t.dataDir, 'empty-'));
    await expect(importOf('huffpost', empty)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/no \.json/) });
  });

  it('rejects what it cannot read with a clear error and writes nothing', async () => {
    const before = await t.db.article.count();
    await expect(importOf('reuters', fixture('bbc'))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/no \.sgm files/),
    });
    await expect(importOf('huffpost', fixture('reuters-sample.sgm'))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/:1: not valid JSON/),
    });
    await expect(importOf('nope', fixture('bbc'))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/reuters, bbc, huffpost/),
    });
    await expect(importOf('bbc', fixture('missing'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await t.db.article.count()).toBe(before);
  });
});

const scifact = sharedData('scifact', 'corpus.jsonl');
const reuters = sharedData('news', 'reuters21578', 'reut2-000.sgm');
const bbc = sharedData('news', 'bbc');
const huffpost = sharedData('news', 'huffpost', 'news_category_subset.json');

describe.skipIf(!scifact || !reuters || !bbc || !huffpost)(`the real corpora (${provider}) ${scifact ? '' : SHARED_MISSING}`, () => {
  it('SciFact: one article per abstract and about 17,000 snippets; twice adds nothing', async () => {
    const r = await importOf('scifact', scifact!);
    expect(r).toMatchObject({ created: 5183, empty: 0, snippets: 16_758 });
    expect(await t.db.article.count({ where: { source: 'SciFact' } })).toBe(5183);
    expect(await importOf('scifact', scifact!)).toMatchObject({ created: 0, unchanged: 5183, snippets: 0 });
  }, 300_000);

  it('Reuters (first file): every story with text stored under its 1987 date', async () => {
    const r = await importOf('reuters', reuters!);
    // NEWIDs 1 and 2 were imported from the fixture above: those two are updated.
    expect(r.created + r.updated + r.unchanged + r.empty).toBe(1000);
    const range = await t.db.article.aggregate({
      where: { source: 'Reuters' },
      _min: { publishedAt: true },
      _max: { publishedAt: true },
      _count: { publishedAt: true },
    });
    expect(range._min.publishedAt).toEqual(new Date('1987-02-26T15:01:01.790Z'));
    expect(range._max.publishedAt!.getUTCFullYear()).toBe(1987);
    expect(await t.db.article.count({ where: { source: 'Reuters', publishedAt: null } })).toBe(0);
  }, 300_000);

  it('BBC and HuffPost: all records', async () => {
    const b = await importOf('bbc', bbc!);
    expect(b.created + b.updated + b.unchanged + b.empty).toBe(2225);
    // The folder it ships in, as a user types it (`quin import huffpost ../shared/data/news/huffpost`).
    const h = await importOf('huffpost', path.dirname(huffpost!));
    expect(h.created + h.updated + h.unchanged + h.empty).toBe(4782);
    expect(h.empty).toBe(0);
    const days = await t.db.article.aggregate({ where: { source: 'HuffPost' }, _min: { publishedAt: true }, _max: { publishedAt: true } });
    expect([days._min.publishedAt, days._max.publishedAt]).toEqual([new Date('2018-02-28T00:00:00Z'), new Date('2018-05-26T00:00:00Z')]);
  }, 300_000);
});
