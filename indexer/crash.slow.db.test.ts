/**
 * kill -9 at many moments of `quin index`, then `quin index`, then `quin index --verify`: the indexes
 * must end up holding exactly the database's snippets (no lost, stale or doubled entries). The kills
 * come from failpoints between the durable steps (indexer/failpoint.ts: the process SIGKILLs itself,
 * as kill -9 would) and from the test at random moments.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../lib/paths';
import { createTestDb, type TestDb } from '../testing/db';
import { tunedQuinArgv } from '../testing/quin-cli';
import { dropIndexes, sharedEs, uniqueIndex, type EsNode } from '../testing/es';
import { ElasticsearchIndex } from './bm25/elasticsearch';
import { faissAvailable } from './dense/faiss-native';
import { addArticle, changeArticle, type TestArticle } from './test-corpus';

const SUBJECTS = [
  'The council',
  'A local charity',
  'The hospital',
  'Farmers',
  'The airline',
  'Scientists',
  'The school board',
  'Investors',
  'The museum',
  'Engineers',
];
const VERBS = ['approved', 'criticised', 'announced', 'delayed', 'funded', 'tested', 'rejected', 'expanded'];
const OBJECTS = [
  'a new bridge',
  'the flood defences',
  'a vaccine trial',
  'the harvest plan',
  'cheaper flights',
  'a solar farm',
  'the reading programme',
  'a wind project',
  'the ancient coins exhibit',
  'a rail tunnel',
];
const PLACES = ['in the north', 'near the river', 'downtown', 'on the coast', 'in the valley', 'across the border'];

function article(i: number, version = 1): TestArticle {
  const sentences = Array.from({ length: 5 }, (_, j) => {
    const k = i * 7 + j * 3 + version * 11;
    return `${SUBJECTS[k % SUBJECTS.length]} ${VERBS[(k + j) % VERBS.length]} ${OBJECTS[(k * 3 + j) % OBJECTS.length]} ${PLACES[(k + 2 * j) % PLACES.length]} (report ${i}.${j}.${version}).`;
  });
  return {
    key: `a${i}`,
    title: `Report number ${i} on ${OBJECTS[i % OBJECTS.length]}`,
    sentences,
    source: i % 2 ? 'wire' : 'daily',
    publishedAt: new Date(Date.UTC(2024, 0, 1 + i)),
  };
}

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
}

function quin(t: TestDb, args: string[], env: Record<string, string> = {}, killAfterMs?: number): Promise<Ran> {
  return new Promise((resolve) => {
    // The CLI code through testing/quin-entry.ts: the child must read QUIN_TEST_TUNING (small batches,
    // so that the failpoints of later batches are reached), which bin/quin.mjs never does.
    const child = spawn(process.execPath, tunedQuinArgv(args), {
      cwd: projectRoot(),
      env: {
        ...process.env,
        QUIN_DATA_DIR: t.dataDir,
        DATABASE_URL: t.config.databaseUrlResolved,
        QUIN_CACHE_DIR: t.config.cacheDir,
        QUIN_TEST_TUNING: JSON.stringify({ indexBatchSize: 4, faissCompactRatio: 0.35 }),
        QUIN_LOG_LEVEL: 'warn',
        QUIN_CONFIG: '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

async function verifyClean(t: TestDb, env: Record<string, string> = {}): Promise<void> {
  const run = await quin(t, ['index'], env);
  expect(run.code, run.out).toBe(0);
  const check = await quin(t, ['index', '--verify'], env);
  expect(check.out).toContain('indexes match the database');
  expect(check.code, check.out).toBe(0);
}

/** Some change in the database, so that the next run has work to do at every failpoint. */
async function mutate(t: TestDb, round: number, articles: Map<number, number>): Promise<void> {
  const next = 100 + 2 * round;
  for (const i of [next, next + 1]) articles.set(i, (await addArticle(t.db, article(i))).articleId);
  const ids = [...articles.keys()];
  const changed = ids[round % ids.length]!;
  await changeArticle(t.db, articles.get(changed)!, article(changed, round + 2));
  if (round % 2 === 1) {
    const victim = ids[(round * 5) % ids.length]!;
    if (victim !== changed && victim !== next) {
      await t.db.article.delete({ where: { id: articles.get(victim)! } });
      articles.delete(victim);
    }
  }
}

describe.skipIf(!faissAvailable())('kill -9 during quin index', () => {
  let t: TestDb;
  const articles = new Map<number, number>();
  beforeAll(async () => {
    t = await createTestDb();
    for (let i = 0; i < 24; i++) articles.set(i, (await addArticle(t.db, article(i))).articleId);
  }, 60_000);
  afterAll(async () => {
    await t.cleanup();
  });

  it('leaves indexes that the next run completes exactly, whatever the moment of the kill', async () => {
    const failpoints = [
      'dense:after-add:3',
      'dense:after-file:1',
      'dense:after-commit:1',
      'dense:after-add:1',
      'dense:after-file:1',
      'dense:after-commit:2',
    ];
    if (t.provider === 'postgres') failpoints.push('fts:after-batch:2'); // BM25 then lives in a SQLite file
    let round = 0;
    for (const fp of failpoints) {
      await mutate(t, round++, articles);
      const killed = await quin(t, ['index'], { QUIN_FAILPOINT: fp });
      expect(killed.signal, `${fp} was not reached:\n${killed.out}`).toBe('SIGKILL');
    }
    // Kills at arbitrary moments (start-up, embedding, a checkpoint, a rebuild…), as fractions of
    // how long a whole run takes on this machine: fixed delays missed every run on a fast machine.
    await mutate(t, round++, articles);
    const started = Date.now();
    expect((await quin(t, ['index', '--rebuild'])).code).toBe(0);
    const fullMs = Date.now() - started;
    let landed = 0;
    for (const [fraction, args] of [
      [0.35, []],
      [0.6, ['--rebuild']],
      [0.85, ['--rebuild']],
    ] as const) {
      await mutate(t, round++, articles);
      const run = await quin(t, ['index', ...args], {}, Math.round(fraction * fullMs));
      if (run.signal === 'SIGKILL') landed++;
    }
    expect(landed, `no timed kill landed inside a ${fullMs} ms run`).toBeGreaterThan(0);
    await mutate(t, round++, articles); // whatever the last kill hit, this change is not indexed yet
    const dirty = await quin(t, ['index', '--verify']);
    expect(dirty.code).not.toBe(0); // the changes since the last completed run are not indexed yet
    expect(dirty.out).toMatch(/DIFF/);
    await verifyClean(t);
  }, 600_000);
});

describe.skipIf(!faissAvailable())('kill -9 during quin index with Elasticsearch', () => {
  let t: TestDb;
  let es: EsNode;
  const indexName = uniqueIndex('crash-test');
  const articles = new Map<number, number>();
  beforeAll(async () => {
    es = await sharedEs(); // a real node (testing/es.ts)
    t = await createTestDb();
    for (let i = 0; i < 10; i++) articles.set(i, (await addArticle(t.db, article(i))).articleId);
  }, 300_000);
  afterAll(async () => {
    await t.cleanup();
    await dropIndexes(es.url, indexName);
    await es.remove();
  });

  it('keeps the ledger covering what Elasticsearch holds', async () => {
    const env = { ELASTICSEARCH_URL: es.url, QUIN_ES_INDEX: indexName };
    let round = 0;
    for (const fp of ['es:after-pending:1', 'es:after-bulk:2', 'es:after-delete:1', 'es:after-bulk:1']) {
      await mutate(t, round++, articles);
      if (fp.startsWith('es:after-delete')) {
        const first = [...articles.keys()][0]!;
        await t.db.article.delete({ where: { id: articles.get(first)! } });
        articles.delete(first);
      }
      const killed = await quin(t, ['index'], { ...env, QUIN_FAILPOINT: fp });
      expect(killed.signal, `${fp} was not reached:\n${killed.out}`).toBe('SIGKILL');
    }
    await verifyClean(t, env);
    const ix = new ElasticsearchIndex({ url: es.url, index: indexName, titleBoost: 1.5, timeoutMs: 30_000 });
    const docs = await ix.ids();
    await ix.close();
    const snippets = (await t.db.snippet.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((s) => s.id);
    expect(docs).toEqual(snippets);
  }, 600_000);
});
