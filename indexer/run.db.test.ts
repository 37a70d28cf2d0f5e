import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQuinError } from '../lib/errors';
import { closeLoadedModels } from '../lib/models';
import { projectRoot } from '../lib/paths';
import { createTestDb, type TestDb } from '../testing/db';
import { faissAvailable } from './dense/faiss-native';
import { chooseFactory } from './dense/sync';
import { USEARCH_DEFAULT } from './dense/usearch-native';
import { indexesDir } from './files';
import { closeSearchIndexes, indexStatus, openSearchIndexes, runIndex, verifyIndexes } from './index';
import { addArticle, changeArticle, TOPICS } from './test-corpus';
import type { SearchIndexes } from './types';

// Real parts throughout: the test database (SQLite, or PostgreSQL with the FTS5 file), USE-lite, FAISS.
let t: TestDb;
const ids: Record<string, { articleId: number; snippetIds: number[] }> = {};

beforeAll(async () => {
  // A high compaction ratio so that tombstones stay until the compaction test asks for it.
  t = await createTestDb({ tuning: { indexBatchSize: 2, faissCompactRatio: 0.9 } });
  for (const a of TOPICS) ids[a.key] = await addArticle(t.db, a);
}, 120_000);
afterAll(async () => {
  await closeSearchIndexes();
  await t.cleanup();
});

const quiet = { progress: false as const };

async function fresh(): Promise<SearchIndexes> {
  await closeSearchIndexes();
  return openSearchIndexes(t.config, t.db);
}

async function denseTop(ix: SearchIndexes, text: string, k = 3): Promise<number[]> {
  const [q] = await ix.encoder.embed([text]);
  return (await ix.dense!.search(q!, k)).map((h) => h.snippetId);
}

const articleOf = async (snippetId: number) => (await t.db.snippet.findUnique({ where: { id: snippetId } }))?.articleId;

describe.skipIf(!faissAvailable())('runIndex → verify → search, incrementally', () => {
  it('indexes everything on the first run, with checkpoints, and verify agrees', async () => {
    const stats = await runIndex(t.db, t.config, quiet);
    const total = Object.values(ids).reduce((n, a) => n + a.snippetIds.length, 0);
    expect('added' in stats.dense && stats.dense.added).toBe(total);
    expect('added' in stats.dense && stats.dense.checkpoints).toBeGreaterThan(1);
    expect(stats.sentencesPerSecond).toBeGreaterThan(0);
    const report = await verifyIndexes(t.db, t.config);
    expect(report.checks.flatMap((c) => c.problems)).toEqual([]);
    expect(report.ok).toBe(true);
  }, 120_000);

  it('finds the right article with BM25 and with the dense index', async () => {
    const ix = await fresh();
    const bm = await ix.bm25.search({ text: 'interest rates', terms: ['interest', 'rates'] }, 5);
    expect(await articleOf(bm[0]!.snippetId)).toBe(ids.rates!.articleId);
    expect(await articleOf((await denseTop(ix, 'monetary policy: borrowing costs go up'))[0]!)).toBe(ids.rates!.articleId);
    expect(await articleOf((await denseTop(ix, 'electricity for rural communities'))[0]!)).toBe(ids.solar!.articleId);
    const sv = await ix.sentenceVectors.get([TOPICS[1]!.sentences[0]!, 'never embedded']);
    expect(sv[0]).toHaveLength(ix.encoder.dim);
    // Cached encoders have no vector for a text never embedded; the static encoder computes any.
    if (ix.encoder.embedSync) expect(sv[1]).toHaveLength(ix.encoder.dim);
    else expect(sv[1]).toBeNull();
  });

  it('pushes date and source filters into BM25 (undated snippets drop out of date filters)', async () => {
    const ix = await fresh();
    const q = { text: 'the', terms: ['the'] };
    const all = await ix.bm25.search(q, 100);
    const dated = await ix.bm25.search(q, 100, { from: new Date('2023-01-01'), to: new Date('2024-12-31') });
    const arts = new Set(await Promise.all(dated.map((h) => articleOf(h.snippetId))));
    expect(arts).toEqual(new Set([ids.rates!.articleId, ids.vitamin!.articleId]));
    expect(all.length).toBeGreaterThan(dated.length);
    const sport = await ix.bm25.search(q, 100, { sources: ['sport'] });
    expect(new Set(await Promise.all(sport.map((h) => articleOf(h.snippetId))))).toEqual(new Set([ids.football!.articleId]));
    expect(await ix.bm25.search(q, 100, { sources: [] })).toEqual([]);
  });

  it('answers any token list with hits or QUERY_UNUSABLE, never a database error', async () => {
    const ix = await fresh();
    const lists: string[][] = [
      ['AND'],
      ['OR', 'NOT', 'NEAR'],
      ['"', 'vitamin'],
      ['*'],
      [],
      ['a"b', 'c*', 'x:y', '(', ')', '^', '-'],
      ['😀', '東京', 'Ελλάδα'],
      Array.from({ length: 5000 }, (_, i) => `t${i}`),
      ['\u0000', 'rates\u0007'],
    ];
    for (const terms of lists) {
      try {
        const hits = await ix.bm25.search({ text: terms.join(' '), terms }, 10);
        expect(Array.isArray(hits)).toBe(true);
      } catch (e) {
        expect(isQuinError(e, 'QUERY_UNUSABLE')).toBe(true);
      }
    }
    expect((await ix.bm25.search({ text: '', terms: ['rates\u0007'] }, 3)).length).toBeGreaterThan(0);
  });

  it('a second run has nothing to do', async () => {
    const stats = await runIndex(t.db, t.config, quiet);
    expect(stats.dense).toMatchObject({ added: 0, checkpoints: 0, sentencesEmbedded: 0, rebuilt: null });
  });

  it('follows additions, changes (new ids) and deletions', async () => {
    const added = await addArticle(t.db, {
      key: 'volcano',
      title: 'Volcano erupts near the coast',
      sentences: [
        'A volcano erupted overnight sending ash high into the sky.',
        'Flights were cancelled across the region.',
        'Residents of nearby towns were evacuated.',
      ],
      source: 'wire',
      publishedAt: new Date('2024-06-01T00:00:00Z'),
    });
    const oldFootball = ids.football!.snippetIds;
    const newFootball = await changeArticle(t.db, ids.football!.articleId, {
      ...TOPICS[3]!,
      sentences: [...TOPICS[3]!.sentences, 'Fans celebrated in the streets until dawn.'],
    });
    await t.db.article.delete({ where: { id: ids.vitamin!.articleId } });
    const stats = await runIndex(t.db, t.config, quiet);
    expect('added' in stats.dense && stats.dense.added).toBe(added.snippetIds.length + newFootball.length);
    const report = await verifyIndexes(t.db, t.config);
    expect(report.checks.flatMap((c) => c.problems)).toEqual([]);
    const ix = await fresh();
    const gone = new Set([...oldFootball, ...ids.vitamin!.snippetIds]);
    const bm = await ix.bm25.search({ text: 'vitamin fractures cup', terms: ['vitamin', 'fractures', 'cup'] }, 50);
    expect(bm.some((h) => gone.has(h.snippetId))).toBe(false);
    expect(bm.some((h) => newFootball.includes(h.snippetId))).toBe(true);
    const dense = await denseTop(ix, 'vitamin D bone fractures trial', 50);
    expect(dense.some((id) => gone.has(id))).toBe(false);
    expect(await articleOf((await denseTop(ix, 'ash cloud grounds flights'))[0]!)).toBe(added.articleId);
    const st = await indexStatus(t.db, t.config);
    expect(st.dense.pending).toBe(0);
    expect(st.dense.tombstones).toBe(oldFootball.length + ids.vitamin!.snippetIds.length);
    expect(st.bm25.pending).toBe(0);
  }, 120_000);

  it('a serving reader answers from its checkpoint while a newer one loads, then serves the newer', async () => {
    const ix = await fresh();
    const before = ix.dense!.size();
    const comet = await addArticle(t.db, {
      key: 'comet',
      title: 'Comet passes close to Earth',
      sentences: ['A bright comet passed close to Earth on Sunday night.', 'Astronomers photographed its long tail.'],
    });
    await runIndex(t.db, t.config, quiet);
    await new Promise((r) => setTimeout(r, 3100)); // a reader looks for a new checkpoint every 3 s
    // The search that finds the new checkpoint does not wait for it to load (~1.5 s at 1M).
    await ix.dense!.refresh!();
    expect(ix.dense!.size()).toBe(before);
    await expect.poll(() => ix.dense!.size(), { timeout: 10_000 }).toBe(before + comet.snippetIds.length);
    expect(await articleOf((await denseTop(ix, 'comet tail photographed by astronomers'))[0]!)).toBe(comet.articleId);
  }, 120_000);

  it('compacts tombstones past the ratio, and verify still agrees', async () => {
    const stats = await runIndex(t.db, { ...t.config, tuning: { ...t.config.tuning, faissCompactRatio: 0.01 } }, quiet);
    expect('rebuilt' in stats.dense && stats.dense.rebuilt).toMatch(/compaction/);
    // A cached encoder reads every vector back; the static encoder computes them (never cached).
    if (t.config.encoder !== 'static') expect(stats.dense).toMatchObject({ sentencesEmbedded: 0 });
    const st = await indexStatus(t.db, t.config);
    expect(st.dense.tombstones).toBe(0);
    expect((await verifyIndexes(t.db, t.config)).ok).toBe(true);
    expect(fs.readdirSync(indexesDir(t.dataDir)).filter((f) => f.startsWith('dense-'))).toEqual([
      st.dense.version ? `dense-v${st.dense.version}.faiss` : '',
    ]);
  }, 60_000);

  it('verify says what differs: a lost map entry, a damaged file', async () => {
    const victim = await t.db.denseEntry.findFirst({ orderBy: { position: 'asc' } });
    await t.db.denseEntry.delete({ where: { position: victim!.position } });
    let report = await verifyIndexes(t.db, t.config);
    expect(report.ok).toBe(false);
    expect(report.checks.find((c) => c.index.startsWith('dense'))!.problems.join('\n')).toMatch(/1 \(e\.g\. \d+\) snippets missing/);
    await runIndex(t.db, t.config, quiet); // re-adds it (a new position; the old one is a tombstone)
    expect((await verifyIndexes(t.db, t.config)).ok).toBe(true);

    const st = await t.db.indexState.findUnique({ where: { name: 'dense' } });
    const file = path.join(indexesDir(t.dataDir), st!.file!);
    const buf = fs.readFileSync(file);
    buf[buf.length - 100] = buf[buf.length - 100]! ^ 0xff;
    fs.writeFileSync(file, buf);
    report = await verifyIndexes(t.db, t.config);
    expect(report.checks.find((c) => c.index.startsWith('dense'))!.problems.join('\n')).toMatch(/does not match its checkpoint/);
    await runIndex(t.db, t.config, { ...quiet, rebuild: true });
    expect((await verifyIndexes(t.db, t.config)).ok).toBe(true);
  }, 60_000);

  it('verify notices a BM25 index that lost a snippet', async () => {
    const victim = (await t.db.snippet.findFirst({ orderBy: { id: 'asc' } }))!;
    if (t.provider === 'sqlite') {
      // Remove it from the FTS5 index behind the triggers' back.
      await t.db.$executeRawUnsafe(
        `INSERT INTO snippets_fts (snippets_fts, rowid, title, text) VALUES ('delete', ?, ?, ?)`,
        victim.id,
        victim.title,
        victim.text,
      );
    } else {
      const Database = (await import('better-sqlite3')).default;
      const f = new Database(path.join(indexesDir(t.dataDir), 'bm25-fts5.sqlite'));
      f.prepare('DELETE FROM snippets_fts WHERE rowid = ?').run(victim.id);
      f.close();
    }
    const report = await verifyIndexes(t.db, t.config);
    expect(report.checks[0]!.ok).toBe(false);
    expect(report.checks[0]!.problems.join('\n')).toContain(`(e.g. ${victim.id}) snippets missing`);
    await runIndex(t.db, t.config, { ...quiet, rebuild: t.provider === 'sqlite' }); // triggers cannot repair what they did not break
    expect((await verifyIndexes(t.db, t.config)).ok).toBe(true);
  });

  it('rebuilds when the pooling changes (the old index serves until then)', async () => {
    const config = { ...t.config, tuning: { ...t.config.tuning, densePooling: 'mean' as const } };
    const stats = await runIndex(t.db, config, quiet);
    expect('rebuilt' in stats.dense && stats.dense.rebuilt).toMatch(/pooling changed/);
    expect((await verifyIndexes(t.db, config)).ok).toBe(true);
    expect((await runIndex(t.db, config, quiet)).dense).toMatchObject({ added: 0, rebuilt: null });
  }, 60_000);

  it('switching to an ONNX encoder rebuilds the dense index with it; searches use it', async () => {
    const config = { ...t.config, encoder: 'onnx' as const, encoderModel: path.join(projectRoot(), 'lib/models/fixtures/tiny-encoder') };
    const stats = await runIndex(t.db, config, quiet);
    expect('rebuilt' in stats.dense && stats.dense.rebuilt).toMatch(/encoder changed/);
    expect((await verifyIndexes(t.db, config)).ok).toBe(true);
    // The default configuration now sees an index of an encoder it cannot load (its folder is not
    // under QUIN_MODELS_DIR): dense off, BM25 still serves.
    const byDefault = await fresh();
    expect(byDefault.dense).toBeNull();
    expect((await verifyIndexes(t.db, t.config)).ok).toBe(false);
    await closeSearchIndexes();
    const ix = await openSearchIndexes(config, t.db);
    expect(ix.encoder.id).toMatch(/^onnx:tiny-encoder@/);
    expect(ix.dense!.size()).toBe(await t.db.snippet.count());
    await closeLoadedModels();
  }, 60_000);

  it('builds HNSW (USearch) past FAISS_EXACT_MAX, builds any factory string, and falls back to exact for an untrainable IVF', async () => {
    const auto = { ...t.config, tuning: { ...t.config.tuning, faissExactMax: 3 } };
    expect(chooseFactory(auto, 3)).toBe('Flat');
    expect(chooseFactory(auto, 4)).toBe(USEARCH_DEFAULT);
    expect(chooseFactory(auto, 1_000_000)).toBe(USEARCH_DEFAULT);
    const first = await runIndex(t.db, auto, quiet);
    expect(first.dense).toMatchObject({ factory: USEARCH_DEFAULT }); // HNSW needs no training
    expect((await verifyIndexes(t.db, auto)).ok).toBe(true);
    expect(await articleOf((await denseTop(await openSearchIndexes(auto, t.db), 'electricity for rural communities'))[0]!)).toBe(
      ids.solar!.articleId,
    );
    await closeSearchIndexes();
    // Extended: the int8 graph grows, its f16 rows are the old file's and the new ones, and only the
    // new checkpoint's two files stay.
    const glacier = await addArticle(t.db, {
      key: 'glacier',
      title: 'Alpine glaciers lose a tenth of their ice',
      sentences: [
        'Glaciers in the Alps lost a tenth of their remaining ice in two summers.',
        'Researchers measured the ice with drones and radar.',
        'Meltwater lakes are forming below several of them.',
      ],
      source: 'wire',
    });
    const grown = await runIndex(t.db, auto, quiet);
    expect(grown.dense).toMatchObject({ factory: USEARCH_DEFAULT, added: glacier.snippetIds.length, rebuilt: null });
    const report = await verifyIndexes(t.db, auto);
    expect(report.ok).toBe(true);
    // The rows beside the graph are part of it, not a leftover.
    expect(report.checks.find((c) => c.index.startsWith('dense'))!.facts.strayFiles).toBeUndefined();
    const files = fs.readdirSync(indexesDir(t.config.dataDir)).filter((f) => f.startsWith('dense-'));
    const graph = files.find((f) => f.endsWith('.usearch'))!;
    expect(files.sort()).toEqual([graph, `${graph}.f16`]);
    const size = (f: string) => fs.statSync(path.join(indexesDir(t.config.dataDir), f)).size;
    expect((await indexStatus(t.db, auto)).dense.bytes).toBe(size(graph) + size(`${graph}.f16`));
    expect(await articleOf((await denseTop(await openSearchIndexes(auto, t.db), 'ice melting in mountain glaciers'))[0]!)).toBe(
      glacier.articleId,
    );
    await closeSearchIndexes();
    const hnsw = { ...t.config, tuning: { ...t.config.tuning, faissFactory: 'HNSW32' } };
    const stats = await runIndex(t.db, hnsw, quiet);
    expect(stats.dense).toMatchObject({ factory: 'HNSW32' });
    expect('rebuilt' in stats.dense && stats.dense.rebuilt).toMatch(/the FAISS factory changed/);
    expect((await verifyIndexes(t.db, hnsw)).ok).toBe(true);
    await closeSearchIndexes();
    const ix = await openSearchIndexes(hnsw, t.db);
    expect(await articleOf((await denseTop(ix, 'electricity for rural communities'))[0]!)).toBe(ids.solar!.articleId);

    const ivf = { ...t.config, tuning: { ...t.config.tuning, faissFactory: 'IVF64,Flat' } };
    const again = await runIndex(t.db, ivf, { ...quiet, rebuild: true });
    expect(again.dense).toMatchObject({ factory: 'Flat' }); // 64 centroids need ≥ 64 vectors: exact until then
    expect((await verifyIndexes(t.db, ivf)).ok).toBe(true);
    expect((await runIndex(t.db, ivf, quiet)).dense).toMatchObject({ added: 0, rebuilt: null });
  }, 60_000);
});
