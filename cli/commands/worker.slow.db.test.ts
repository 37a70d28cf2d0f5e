import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFeed, storeArticles, type ArticleInput } from '../../crawler';
import { listWorkers, stuckReason } from '../../lib/web/worker-heartbeat';
import { TEST_CRAWLER_OVERRIDES } from '../../testing/crawler';
import { createTestDb, type TestDb } from '../../testing/db';
import { send } from '../../testing/http-server';
import { startNewsSite, type NewsSite } from '../../testing/news-site';
import { defaultTasks, runWorker, type WorkerTask } from './worker';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<number> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await wait(100);
  }
  return Date.now() - t0;
}

describe('quin worker loops', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => t.cleanup());

  it('runs crawling and indexing side by side: the crawl goes on while a long indexing pass runs', async () => {
    const controller = new AbortController();
    let crawls = 0;
    let releaseIndex!: () => void;
    const indexHeld = new Promise<void>((r) => (releaseIndex = r));
    const states: string[] = [];
    const tasks: WorkerTask[] = [
      {
        name: 'crawl',
        async run() {
          crawls += 1;
          if (crawls === 1) throw new Error('feed server down');
          return { feeds: crawls };
        },
      },
      {
        name: 'index',
        async run(_signal, progress) {
          progress();
          await indexHeld;
          return { added: 1 };
        },
      },
    ];
    const done = runWorker({ db: t.db, tasks, pollMs: 10, signal: controller.signal, heartbeatMs: 5 });
    await until('four crawl passes during one indexing pass', () => crawls >= 4, 10_000);
    const [w] = await listWorkers(t.db);
    states.push(w!.state);
    expect(w!.detail).toMatchObject({ loops: { index: { state: 'running', passes: 0 } } });
    expect((w!.detail as { loops: { crawl: { passes: number } } }).loops.crawl.passes).toBeGreaterThanOrEqual(2);
    expect(['indexing', 'crawling+indexing']).toContain(w!.state);
    releaseIndex();
    await until(
      'the indexing pass to end',
      async () => ((await listWorkers(t.db))[0]!.detail as { index?: unknown }).index !== undefined,
      5000,
    );
    controller.abort();
    const result = await done;
    expect(result.last.crawl).toMatchObject({ ok: true });
    expect(result.last.index).toMatchObject({ ok: true, summary: { added: 1 } });
    const [end] = await listWorkers(t.db);
    expect(end).toMatchObject({ pid: process.pid, state: 'stopped', up: false, stuck: null });
  });

  it('records a failing pass in the heartbeat', async () => {
    const controller = new AbortController();
    const tasks: WorkerTask[] = [
      {
        name: 'crawl',
        async run() {
          throw new Error('boom');
        },
      },
    ];
    const r = await runWorker({ db: t.db, tasks, pollMs: 10, signal: controller.signal, once: true });
    expect(r.last.crawl).toMatchObject({ ok: false, error: 'boom' });
  });

  it('cancels a long pass through the signal and still says "stopped"', async () => {
    const controller = new AbortController();
    const tasks: WorkerTask[] = [
      {
        name: 'index',
        run: (signal) =>
          new Promise((_, reject) => {
            const abort = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
            if (signal.aborted) abort();
            else signal.addEventListener('abort', abort);
          }),
      },
    ];
    setTimeout(() => controller.abort(), 200);
    const t0 = Date.now();
    await runWorker({ db: t.db, tasks, pollMs: 60_000, signal: controller.signal });
    expect(Date.now() - t0).toBeLessThan(5000);
    const [w] = await listWorkers(t.db);
    expect(w!.state).toBe('stopped');
  });

  it('says "stuck" when a loop of a live worker makes no progress for too long', async () => {
    const controller = new AbortController();
    const tasks: WorkerTask[] = [
      { name: 'crawl', run: (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))) },
    ];
    const done = runWorker({ db: t.db, tasks, pollMs: 10, signal: controller.signal, heartbeatMs: 50, stuckAfterSeconds: 1 });
    await until('the worker to look stuck', async () => (await listWorkers(t.db))[0]!.stuck !== null, 10_000);
    const [w] = await listWorkers(t.db);
    expect(w).toMatchObject({ up: true, stuck: expect.stringMatching(/^crawl has made no progress for \d+ s$/) });
    expect(w!.state).toMatch(/^stuck \(crawl has made no progress/);
    controller.abort();
    await done;
    // Pure: a running loop that moved recently is not stuck; a waiting one never is.
    const now = new Date('2026-01-01T00:10:00Z');
    const loops = (progressAt: string, state = 'running') => ({ stuckAfterSeconds: 300, loops: { crawl: { state, progressAt } } });
    expect(stuckReason(loops('2026-01-01T00:09:00Z'), now)).toBeNull();
    expect(stuckReason(loops('2026-01-01T00:00:00Z'), now)).toBe('crawl has made no progress for 600 s');
    expect(stuckReason(loops('2026-01-01T00:00:00Z', 'waiting'), now)).toBeNull();
  });
});

describe('the real worker: its indexing process', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb({ ...TEST_CRAWLER_OVERRIDES });
    const docs: ArticleInput[] = Array.from({ length: 12 }, (_, i) => ({
      canonicalUrl: `https://small.test/${i}`,
      originalUrl: `https://small.test/${i}`,
      title: `Small story ${i}`,
      source: 'small',
      publishedAt: new Date(Date.UTC(2024, 1, 1 + i)),
      publishedAtSource: 'item',
      fetchedAt: new Date(),
      textSource: 'item_content',
      extractionStatus: 'ok',
      text: `The council met on day ${i} to vote on the rail budget. Members approved plan number ${i} after a debate about costs.`,
    }));
    await storeArticles(t.db, docs, { size: 5, stride: 3, minChars: 40 });
  });
  afterAll(async () => t?.cleanup());

  it('indexes every snippet in a child process and reports its progress in the heartbeat', async () => {
    const controller = new AbortController();
    const tasks = await defaultTasks(t.db, t.config, { crawl: true, index: true });
    const r = await runWorker({ db: t.db, tasks, pollMs: 10, signal: controller.signal, once: true });
    expect(r.last.index, JSON.stringify(r.last.index)).toMatchObject({ ok: true, summary: { snippets: 12 } });
    expect(await t.db.denseEntry.count()).toBe(await t.db.snippet.count());
    const [w] = await listWorkers(t.db);
    const loops = (w!.detail as { loops: Record<string, { passes: number; since: string; progressAt: string }> }).loops;
    expect(loops.index!.passes).toBe(1);
    expect(Date.parse(loops.index!.progressAt)).toBeGreaterThan(Date.parse(w!.startedAt));
  }, 180_000);
});

describe('the real worker with an indexing backlog: crawling never waits behind indexing', () => {
  let t: TestDb;
  let site: NewsSite;
  beforeAll(async () => {
    // A backlog of ~200,000 snippets whose sentences nobody has embedded yet: the static encoder
    // needs a minute for it, so the feed is added while the indexer is still busy.
    t = await createTestDb({ ...TEST_CRAWLER_OVERRIDES });
    site = await startNewsSite();
    const words = 'market policy court vote storm trade energy health school rail budget police water price city union'.split(' ');
    const docs: ArticleInput[] = Array.from({ length: 1500 }, (_, i) => ({
      canonicalUrl: `https://backlog.test/${i}`,
      originalUrl: `https://backlog.test/${i}`,
      title: `Backlog story ${i}`,
      source: 'backlog',
      publishedAt: new Date(Date.UTC(2024, 0, 1 + (i % 300))),
      publishedAtSource: 'item',
      fetchedAt: new Date(),
      textSource: 'item_content',
      extractionStatus: 'ok',
      text: Array.from(
        { length: 6 },
        (_, j) =>
          `Report ${i}-${j} says the ${words[(i + j) % words.length]} ${words[(i * 7 + j) % words.length]} question number ${i * 10 + j} is open.`,
      ).join(' '),
    }));
    for (let i = 0; i < docs.length; i += 250) await storeArticles(t.db, docs.slice(i, i + 250), { size: 5, stride: 3, minChars: 40 });
    // Then 60 copies of every window, each of its sentences made unique at the same length (so the
    // sentence offsets stay true): written in one statement, the FTS5 triggers included.
    const columns = 'article_id, position, sentence_start, sentence_end, text, sentence_spans, title, source, published_at, created_at';
    const copies = `SELECT s.article_id, s.position + n.i * 1000, s.sentence_start, s.sentence_end,
        replace(s.text, 'question number', ${t.provider === 'sqlite' ? "printf('qx%06d number', n.i)" : "'qx' || lpad(n.i::text, 6, '0') || ' number'"}),
        s.sentence_spans, s.title, s.source, s.published_at, s.created_at FROM snippets s, n`;
    await t.db.$executeRawUnsafe(
      t.provider === 'sqlite'
        ? `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60) INSERT INTO snippets (${columns}) ${copies}`
        : `WITH n(i) AS (SELECT generate_series(1, 60)) INSERT INTO snippets (${columns}) ${copies}`,
    );
    expect(await t.db.snippet.count()).toBeGreaterThan(150_000);
  }, 180_000);
  afterAll(async () => {
    await site?.close();
    await t?.cleanup();
  });

  it('fetches a feed added while the indexer embeds the backlog within 30 seconds', async () => {
    const controller = new AbortController();
    const config = { ...t.config, workerPollSeconds: 5 };
    const tasks = await defaultTasks(t.db, config, { crawl: true, index: true });
    const done = runWorker({ db: t.db, tasks, pollMs: config.workerPollSeconds * 1000, signal: controller.signal, heartbeatMs: 500 });
    try {
      const indexing = async () => {
        const [w] = await listWorkers(t.db);
        return (w?.detail as { loops?: { index?: { state: string } } } | null)?.loops?.index?.state === 'running';
      };
      await until('the indexing pass to start', indexing, 30_000);
      await wait(3000); // well into the backlog (the encoder loaded, batches being embedded)
      expect(await indexing()).toBe(true);

      site.route(
        '/new.rss',
        send('<?xml version="1.0"?><rss version="2.0"><channel><title>New</title></channel></rss>', { type: 'application/rss+xml' }),
      );
      const feed = await addFeed(t.db, site.url('/new.rss'), { intervalMinutes: 60 });
      const tookMs = await until(
        'the new feed to be fetched',
        async () => (await t.db.feed.findUniqueOrThrow({ where: { id: feed.id } })).lastCheckedAt !== null,
        30_000,
      );
      process.stderr.write(
        `new feed fetched ${tookMs} ms after it was added; dense entries ${await t.db.denseEntry.count()}/${await t.db.snippet.count()}\n`,
      );
      expect(tookMs).toBeLessThan(30_000);
      // ...while the indexer was still working through the backlog.
      expect(await indexing()).toBe(true);
      expect(await t.db.denseEntry.count()).toBeLessThan(await t.db.snippet.count());
    } finally {
      controller.abort();
      await done;
    }
  }, 180_000);
});
