import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../testing/db';
import { closeSearchIndexes, openSearchIndexes, runIndex, verifyIndexes } from '../index';
import { addArticle, TOPICS } from '../test-corpus';
import { dropIndexes, rawClient, sharedEs, uniqueIndex, type EsNode } from '../../testing/es';
import { ElasticsearchIndex } from './elasticsearch';
import { analysedDocs } from './es-analysis';

// A real node (testing/es.ts); this file's indexes carry a name of their own.
let es: EsNode;
let t: TestDb;
const indexName = uniqueIndex('sync-test');

beforeAll(async () => {
  es = await sharedEs();
  t = await createTestDb({ elasticsearchUrl: es.url, elasticsearchIndex: indexName, tuning: { indexBatchSize: 3 } });
  for (const a of TOPICS) await addArticle(t.db, a);
}, 300_000);
afterAll(async () => {
  await closeSearchIndexes();
  await t.cleanup();
  await dropIndexes(es.url, indexName);
  await es.remove();
});

/** What an index holds, read by the backend itself after a refresh. */
async function idsIn(name: string): Promise<number[]> {
  const ix = new ElasticsearchIndex({ url: es.url, index: name, titleBoost: 1.5, timeoutMs: 30_000 });
  await ix.refresh();
  const ids = await ix.ids();
  await ix.close();
  return ids;
}
const esIds = () => idsIn(indexName);
const dbIds = async () => (await t.db.snippet.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((s) => s.id);

describe('Elasticsearch kept in step through the ledger', () => {
  it('indexes every snippet, and search goes through Elasticsearch', async () => {
    const stats = await runIndex(t.db, t.config, { progress: false });
    expect(stats.bm25).toMatchObject({ backend: 'elasticsearch', added: (await dbIds()).length });
    expect(await esIds()).toEqual(await dbIds());
    const ix = await openSearchIndexes(t.config, t.db);
    expect(ix.bm25.backend).toBe('elasticsearch');
    const hits = await ix.bm25.search({ text: 'solar panels in villages', terms: ['solar', 'panels', 'villages'] }, 3);
    const snippet = await t.db.snippet.findUnique({ where: { id: hits[0]!.snippetId } });
    expect(snippet?.title).toMatch(/Solar/);
    expect((await verifyIndexes(t.db, t.config)).checks[0]).toMatchObject({ ok: true });
  }, 180_000);

  it('removes deleted snippets and settles writes left pending by a crash', async () => {
    const [gone, kept] = await t.db.article.findMany({ take: 2, orderBy: { id: 'asc' }, include: { snippets: true } });
    // A crash after "pending" and before the bulk request, for a snippet ES does not have…
    await t.db.esEntry.update({ where: { snippetId: kept!.snippets[0]!.id }, data: { state: 'pending' } });
    const client = rawClient(es.url);
    await client.delete({ index: indexName, id: String(kept!.snippets[0]!.id), refresh: true });
    await client.close();
    // …and a crash after a bulk index whose snippet was deleted since.
    await t.db.esEntry.update({ where: { snippetId: gone!.snippets[0]!.id }, data: { state: 'pending' } });
    await t.db.article.delete({ where: { id: gone!.id } });
    const before = await verifyIndexes(t.db, t.config);
    expect(before.ok).toBe(false);
    expect(before.checks[0]!.problems.join('\n')).toMatch(/missing[\s\S]*no longer exist[\s\S]*not confirmed/);
    await runIndex(t.db, t.config, { progress: false });
    expect(await esIds()).toEqual(await dbIds());
    expect(await t.db.esEntry.count({ where: { state: { not: 'done' } } })).toBe(0);
    expect((await verifyIndexes(t.db, t.config)).checks[0]).toMatchObject({ ok: true, problems: [] });
  }, 180_000);

  it('rewrites an index of the older layout (the english analyzer, no token fields)', async () => {
    // What an earlier version recorded as its target: the URL and the index, without the layout.
    await t.db.indexState.update({ where: { name: 'elasticsearch' }, data: { file: `${es.url}#${indexName}` } });
    const stats = await runIndex(t.db, t.config, { progress: false });
    expect(stats.bm25.added).toBe((await dbIds()).length);
    expect(await esIds()).toEqual(await dbIds());
    expect((await t.db.indexState.findUnique({ where: { name: 'elasticsearch' } }))?.file).toMatch(/#fts5-terms-1$/);
  }, 180_000);

  it('starts over when the index name changes, and --rebuild drops the index', async () => {
    const other = `${indexName}-other`;
    const config = { ...t.config, elasticsearchIndex: other };
    const orphan = new ElasticsearchIndex({ url: es.url, index: other, titleBoost: 1.5, timeoutMs: 30_000 });
    await orphan.bulk(analysedDocs([{ id: 999_999, title: 'orphan', text: 'left from another run', source: 'x', publishedAt: null }]), []);
    await orphan.close();
    await runIndex(t.db, config, { progress: false });
    const problems = (await verifyIndexes(t.db, config)).checks[0]!.problems;
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p).toMatch(/999999/);
    await runIndex(t.db, config, { progress: false, rebuild: true });
    expect(await idsIn(other)).toEqual(await dbIds());
    expect((await verifyIndexes(t.db, config)).checks[0]!.ok).toBe(true);
  }, 180_000);
});
