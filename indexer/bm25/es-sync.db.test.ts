import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { closeSearchIndexes, openSearchIndexes, runIndex, verifyIndexes } from '../index';
import { addArticle, TOPICS } from '../test-corpus';
import { ElasticsearchIndex } from './elasticsearch';
import { toEsDoc } from './es-query';
import { startFakeElasticsearch, type FakeElasticsearch } from './es-test-server';

// Elasticsearch cannot run here: a local server answering as its REST API documents stands in for it.
let es: FakeElasticsearch;
let t: TestDb;
const indexName = 'quin-test';

beforeAll(async () => {
  es = await startFakeElasticsearch();
  t = await createTestDb({ elasticsearchUrl: es.url, elasticsearchIndex: indexName, tuning: { indexBatchSize: 3 } });
  for (const a of TOPICS) await addArticle(t.db, a);
}, 60_000);
afterAll(async () => {
  await closeSearchIndexes();
  await t.cleanup();
  await es.close();
});

const esIds = () => [...es.indices.get(indexName)!.docs.keys()].map(Number).sort((a, b) => a - b);
const dbIds = async () => (await t.db.snippet.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((s) => s.id);

describe('Elasticsearch kept in step through the ledger', () => {
  it('indexes every snippet, and search goes through Elasticsearch', async () => {
    const stats = await runIndex(t.db, t.config, { progress: false });
    expect(stats.bm25).toMatchObject({ backend: 'elasticsearch', added: (await dbIds()).length });
    expect(esIds()).toEqual(await dbIds());
    const ix = await openSearchIndexes(t.config, t.db);
    expect(ix.bm25.backend).toBe('elasticsearch');
    const hits = await ix.bm25.search({ text: 'solar panels in villages', terms: ['solar', 'panels', 'villages'] }, 3);
    const snippet = await t.db.snippet.findUnique({ where: { id: hits[0]!.snippetId } });
    expect(snippet?.title).toMatch(/Solar/);
    expect((await verifyIndexes(t.db, t.config)).checks[0]).toMatchObject({ ok: true });
  }, 60_000);

  it('removes deleted snippets and settles writes left pending by a crash', async () => {
    const [gone, kept] = await t.db.article.findMany({ take: 2, orderBy: { id: 'asc' }, include: { snippets: true } });
    // A crash after "pending" and before the bulk request, for a snippet ES does not have…
    await t.db.esEntry.update({ where: { snippetId: kept!.snippets[0]!.id }, data: { state: 'pending' } });
    es.indices.get(indexName)!.docs.delete(String(kept!.snippets[0]!.id));
    // …and a crash after a bulk index whose snippet was deleted since.
    await t.db.esEntry.update({ where: { snippetId: gone!.snippets[0]!.id }, data: { state: 'pending' } });
    await t.db.article.delete({ where: { id: gone!.id } });
    const before = await verifyIndexes(t.db, t.config);
    expect(before.ok).toBe(false);
    expect(before.checks[0]!.problems.join('\n')).toMatch(/missing[\s\S]*no longer exist[\s\S]*not confirmed/);
    await runIndex(t.db, t.config, { progress: false });
    expect(esIds()).toEqual(await dbIds());
    expect(await t.db.esEntry.count({ where: { state: { not: 'done' } } })).toBe(0);
    expect((await verifyIndexes(t.db, t.config)).checks[0]).toMatchObject({ ok: true, problems: [] });
  }, 60_000);

  it('starts over when the index name changes, and --rebuild drops the index', async () => {
    const config = { ...t.config, elasticsearchIndex: 'quin-other' };
    await new ElasticsearchIndex({ url: es.url, index: 'quin-other', titleBoost: 1, timeoutMs: 5000 }).bulk(
      [toEsDoc({ id: 999_999, title: 'orphan', text: 'left from another run', source: 'x', publishedAt: null })],
      [],
    );
    await runIndex(t.db, config, { progress: false });
    const problems = (await verifyIndexes(t.db, config)).checks[0]!.problems;
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p).toMatch(/999999/);
    await runIndex(t.db, config, { progress: false, rebuild: true });
    expect([...es.indices.get('quin-other')!.docs.keys()].map(Number).sort((a, b) => a - b)).toEqual(await dbIds());
    expect((await verifyIndexes(t.db, config)).checks[0]!.ok).toBe(true);
  }, 60_000);
});
