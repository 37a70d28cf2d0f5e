/**
 * `quin eval news` end to end on a tiny corpus of our own in the three import formats: real import,
 * real index (USE-lite + FAISS), the real search pipeline with the installed NLI model. The numbers
 * depend on the model; what is checked is the plumbing: every corpus imported into one workspace,
 * the Reuters subset (named stories + fixed distractors), results.json and predictions.jsonl.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { tempDir } from '../../testing/db';
import { evaluateNews } from './evaluate';
import { selectReuters, writeReutersSubset } from './reuters-subset';

const root = tempDir('quin-news-eval-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string, encoding: BufferEncoding = 'utf8') {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text, encoding);
}

const story = (id: number, title: string, body: string) =>
  `<REUTERS TOPICS="YES" NEWID="${id}">\n<DATE> 2-MAR-1987 10:00:00.00</DATE>\n<TEXT>\n<TITLE>${title}</TITLE>\n<BODY>${body}\n Reuter\n&#3;</BODY></TEXT>\n</REUTERS>\n`;

/** A shared-data folder in miniature: news/bbc, news/huffpost, news/reuters21578. */
function fixture(dir: string) {
  write(
    path.join(dir, 'news', 'bbc', 'business', '001.txt'),
    'Widget profits jump\n\nWidgetCo said its quarterly profit rose 40% to $2bn on strong sales in Asia.\n\nThe firm also plans to hire 500 engineers in Leeds.\n',
  );
  write(
    path.join(dir, 'news', 'bbc', 'sport', '001.txt'),
    'Rovers beat United\n\nRovers beat United 3-1 at home on Saturday to go top of the league.\n',
  );
  write(
    path.join(dir, 'news', 'huffpost', 'news_category_subset.json'),
    [
      {
        category: 'SCIENCE',
        headline: 'Lake Town Opens Its First Public Library',
        authors: '',
        link: 'https://www.huffingtonpost.com/entry/lake-town-library_us_1',
        short_description: 'The library holds 20,000 books.',
        date: '2018-03-01',
      },
      {
        category: 'SPORTS',
        headline: 'Marathon Runner Breaks Course Record',
        authors: '',
        link: 'https://www.huffingtonpost.com/entry/marathon-record_us_2',
        short_description: 'She finished in two hours and 18 minutes.',
        date: '2018-04-01',
      },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n',
  );
  write(
    path.join(dir, 'news', 'reuters21578', 'reut2-000.sgm'),
    '<!DOCTYPE lewis SYSTEM "lewis.dtd">\n' +
      story(
        1,
        'ZAMBIA MAIZE CROP FALLS',
        "Zambia's maize crop will fall sharply this year because of poor rainfall, the agriculture minister said.",
      ) +
      story(2, 'COCOA PRICES STEADY', 'Cocoa prices were steady in quiet trading in London on Monday, dealers said.') +
      story(3, 'STEEL OUTPUT RISES', 'Japanese crude steel output rose four pct in February from a year earlier, the federation said.') +
      story(4, 'TIN TALKS END', 'Talks on the future of the tin market ended without agreement in Geneva, delegates said.'),
    'latin1',
  );
}

const claims = [
  {
    id: 't-1',
    claim: 'WidgetCo profit rose 40%',
    label: 'SUPPORTED',
    kind: 'paraphrase',
    corpus: 'bbc',
    doc: 'business/001.txt',
    sentence: 'WidgetCo said its quarterly profit rose 40% to $2bn on strong sales in Asia.',
    note: '',
  },
  {
    id: 't-2',
    claim: 'United beat Rovers 3-1',
    label: 'REFUTED',
    kind: 'roles',
    corpus: 'bbc',
    doc: 'sport/001.txt',
    sentence: 'Rovers beat United 3-1 at home on Saturday to go top of the league.',
    note: '',
  },
  { id: 't-3', claim: 'Xbox price', label: null, kind: 'keywords', corpus: 'bbc', doc: null, sentence: null, note: '' },
  {
    id: 't-4',
    claim: "Lake Town's new library holds 20,000 books",
    label: 'SUPPORTED',
    kind: 'number',
    corpus: 'huffpost',
    doc: 'https://www.huffingtonpost.com/entry/lake-town-library_us_1',
    sentence: 'The library holds 20,000 books.',
    note: '',
  },
  {
    id: 't-5',
    claim: "Zambia's maize crop will be bigger this year",
    label: 'REFUTED',
    kind: 'direction',
    corpus: 'reuters',
    doc: '1',
    sentence: "Zambia's maize crop will fall sharply this year because of poor rainfall, the agriculture minister said.",
    note: '',
  },
  {
    id: 't-6',
    claim: 'The marathon record was set in Boston',
    label: 'NOT_ENOUGH_EVIDENCE',
    kind: 'nei',
    corpus: 'huffpost',
    doc: 'https://www.huffingtonpost.com/entry/marathon-record_us_2',
    sentence: 'Marathon Runner Breaks Course Record',
    note: '',
  },
];

describe('the Reuters subset', () => {
  it('keeps the named stories and the same distractors every time', () => {
    const shared = path.join(root, 'subset');
    fixture(shared);
    const dir = path.join(shared, 'news', 'reuters21578');
    const a = selectReuters(dir, new Set(['1', '99']), 2);
    expect(a.missing).toEqual(['99']);
    expect(a.chosen.map((b) => b.newId)).toContain('1');
    expect(a.chosen).toHaveLength(3);
    expect(selectReuters(dir, new Set(['1']), 2).chosen.map((b) => b.newId)).toEqual(a.chosen.map((b) => b.newId));
    const out = writeReutersSubset(dir, new Set(['1']), 2, path.join(root, 'subset-out'));
    expect(out).toMatchObject({ documents: 3, named: 1, distractors: 2, missing: [] });
    expect(fs.readFileSync(out.file, 'latin1')).toMatch(/^<REUTERS TOPICS="YES" NEWID="1">/);
    expect(writeReutersSubset(dir, new Set(['1']), 2, path.join(root, 'subset-out')).file).toBe(out.file);
  });
});

describe('evaluateNews', () => {
  it('imports the corpora the claims name into one workspace, judges every claim and writes the results', async () => {
    const shared = path.join(root, 'shared');
    fixture(shared);
    const file = path.join(root, 'claims.jsonl');
    write(file, claims.map((c) => JSON.stringify(c)).join('\n') + '\n');
    const base = loadConfig({
      env: { QUIN_CACHE_DIR: process.env.QUIN_CACHE_DIR ?? '' },
      configFile: null,
      overrides: { dataDir: path.join(root, 'data') },
    });
    const outDir = path.join(root, 'out');
    const run = () =>
      evaluateNews({
        claimsFile: file,
        base,
        sharedData: shared,
        reutersDistractors: 1,
        workspaceRoot: path.join(root, 'ws'),
        outDir,
        progress: false,
      });
    const out = await run();
    // 2 BBC + 2 HuffPost + the named Reuters story and 1 distractor.
    expect(out.info).toMatchObject({ documents: 6, reuters: { named: 1, distractors: 1 } });
    expect(out.results.queries).toBe(5);
    const v = out.results.verdict as {
      confusion: Record<string, Record<string, number>>;
      committed: { coverage: number | null };
      risk_coverage: unknown[];
    };
    const total = Object.values(v.confusion)
      .flatMap((row) => Object.values(row))
      .reduce((a, b) => a + b, 0);
    expect(total).toBe(5);
    expect(v.risk_coverage).toHaveLength(10);
    // A five-article corpus: every deciding article is in the top 10.
    expect(out.results.retrieval).toMatchObject({ hits: 4, of: 4, 'hit@10': 1 });
    expect(out.results.keywords).toMatchObject({ n: 1, items: [{ id: 't-3', query: 'Xbox price' }] });
    expect(out.text).toMatch(/Reuters-21578 as the 1 stories the claims name \+ 1 fixed distractors/);
    expect(out.text).toMatch(/goals for news claims:/);
    const written = JSON.parse(fs.readFileSync(path.join(outDir, 'results.json'), 'utf8'));
    expect(written.dataset).toBe('news');
    expect(fs.readFileSync(path.join(outDir, 'predictions.jsonl'), 'utf8').trim().split('\n')).toHaveLength(6);
    // Same claims, same corpora: the workspace is reused and the verdicts repeat.
    const again = await run();
    expect(again.info.workspace).toBe(out.info.workspace);
    expect(again.outcomes.map((o) => o.predicted)).toEqual(out.outcomes.map((o) => o.predicted));
    // --limit evaluates fewer claims in the same workspace.
    const two = await evaluateNews({
      claimsFile: file,
      base,
      sharedData: shared,
      reutersDistractors: 1,
      workspaceRoot: path.join(root, 'ws'),
      limit: 2,
      progress: false,
    });
    expect(two.results.queries).toBe(2);
    expect(two.info.workspace).toBe(out.info.workspace);
  }, 600_000);

  it('says which corpus is missing', async () => {
    const file = path.join(root, 'claims-missing.jsonl');
    write(file, JSON.stringify(claims[0]) + '\n');
    const base = loadConfig({
      env: {},
      configFile: null,
      overrides: { dataDir: path.join(root, 'data2'), cacheDir: path.join(root, 'cache2') },
    });
    await expect(evaluateNews({ claimsFile: file, base, sharedData: path.join(root, 'nowhere'), progress: false })).rejects.toThrow(
      /the claims need the bbc corpus, which is not at .*nowhere/,
    );
  });
});
