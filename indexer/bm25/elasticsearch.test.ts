/**
 * The Elasticsearch BM25 backend against a real node (testing/es.ts: scripts/es-node.sh, the server
 * Elastic publishes on Maven Central): the index definition, the tokens it holds (the embedded
 * BM25's own), bulk writes and deletes, search with filters, hostile text, and failures mapped to
 * INDEX_UNAVAILABLE with Elasticsearch's reason.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isQuinError } from '../../lib/errors';
import { dropIndexes, rawClient, sharedEs, uniqueIndex, type EsNode } from '../../testing/es';
import { ElasticsearchIndex } from './elasticsearch';
import { analysedDocs } from './es-analysis';
import { searchBody } from './es-query';
import { FTS_TOKENIZER } from './fts5';

// A real node on a machine that may be busy: its requests get the product's timeout, tests three minutes.
vi.setConfig({ testTimeout: 180_000 });

let es: EsNode;
const prefix = uniqueIndex('bm25-test');
const open: ElasticsearchIndex[] = [];
beforeAll(async () => {
  es = await sharedEs();
});
afterAll(async () => {
  for (const ix of open) await ix.close();
  await dropIndexes(es.url, prefix);
  await es.remove();
});

function index(name: string, titleBoost = 1.5, timeoutMs = 30_000): ElasticsearchIndex {
  const ix = new ElasticsearchIndex({ url: es.url, index: `${prefix}-${name}`, titleBoost, timeoutMs });
  open.push(ix);
  return ix;
}

const row = (id: number, title: string, text: string, source = 'wire', publishedAt: Date | null = new Date('2024-03-01T00:00:00Z')) => ({
  id,
  title,
  text,
  source,
  publishedAt,
});

const q = (text: string) => ({ text, terms: text.split(/\s+/) });

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'none';
  } catch (e) {
    return isQuinError(e) ? e.code : `raw: ${(e as Error).message}`;
  }
}

/** Each text's tokens as FTS5 itself indexes them (the embedded BM25's table definition), counted. */
function fts5Counts(texts: string[]): Map<string, number>[] {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE f USING fts5(x, tokenize='${FTS_TOKENIZER}'); CREATE VIRTUAL TABLE v USING fts5vocab(f, instance)`);
  texts.forEach((t, i) => db.prepare('INSERT INTO f (rowid, x) VALUES (?, ?)').run(i + 1, t));
  const out = texts.map(() => new Map<string, number>());
  for (const r of db.prepare('SELECT doc, term FROM v').all() as { doc: number; term: string }[])
    out[r.doc - 1]!.set(r.term, (out[r.doc - 1]!.get(r.term) ?? 0) + 1);
  db.close();
  return out;
}

describe('Elasticsearch BM25 backend (a real node)', () => {
  it('creates the index once: whitespace token fields, frequencies only, FTS5 k1 and b', async () => {
    const ix = index('mapping');
    await ix.ensureIndex();
    await index('mapping').ensureIndex(); // a second process: the index exists, nothing changes
    const client = rawClient(es.url);
    const name = `${prefix}-mapping`;
    const mapping = (await client.indices.getMapping({ index: name }))[name]!.mappings;
    expect(mapping.properties).toMatchObject({
      title: { type: 'text', analyzer: 'whitespace', index_options: 'freqs' },
      text: { type: 'text', analyzer: 'whitespace', index_options: 'freqs' },
      source: { type: 'keyword' },
      published_at: { type: 'date' },
    });
    const settings = (await client.indices.getSettings({ index: name }))[name]!.settings!.index!;
    expect(settings.similarity).toEqual({ default: { type: 'BM25', k1: '1.2', b: '0.75' } });
    expect(settings.auto_expand_replicas).toBe('0-1');
    await client.close();
    const cluster = await ix.cluster();
    expect(cluster).toMatchObject({ status: 'green', nodes: 1, dataNodes: 1, index: { status: 'green', shards: 1, unassigned: 0 } });
  });

  it('holds exactly the tokens FTS5 holds for the same text', async () => {
    const texts = [
      'Vitamin D supplements reduced fractures in older adults',
      'Café naïve résumé — ÜBER Straße',
      "COVID-19 vaccines don't cause autism; U.S. trials (2021) said so",
      'running runs ran runner 3.5% 1,000,000',
      '中文文本 and العربية text, emoji 🎉 in between',
      'x'.repeat(200),
    ];
    const ix = index('tokens');
    await ix.bulk(analysedDocs(texts.map((t, i) => row(i + 1, 'Title', t))), []);
    await ix.refresh();
    const client = rawClient(es.url);
    const want = fts5Counts(texts);
    for (const [i] of texts.entries()) {
      const tv = await client.termvectors({ index: `${prefix}-tokens`, id: String(i + 1), fields: ['text'], term_statistics: false });
      const terms = tv.term_vectors?.text?.terms ?? {};
      const got = new Map(Object.entries(terms).map(([t, v]) => [t, v.term_freq]));
      expect(got, texts[i]).toEqual(want[i]);
    }
    await client.close();
  });

  it('bulk-indexes, searches after a refresh, filters, deletes, lists ids', async () => {
    const ix = index('docs', 2);
    await ix.bulk(
      analysedDocs([
        row(1, 'Vitamin D and bone health', 'Vitamin D supplements reduce fractures in older adults.'),
        row(2, 'Markets', 'Stocks rallied as oil prices fell.', 'bbc', new Date('2023-01-01T00:00:00Z')),
        row(3, 'Fractures', 'Hip fractures are common.', 'wire', null),
      ]),
      [],
    );
    await ix.refresh();
    const hits = await ix.search(q('vitamin fractures'), 10);
    expect(hits.map((h) => h.snippetId).sort()).toEqual([1, 3]);
    expect(hits[0]!.snippetId).toBe(1); // both words, one of them in the title
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    // Stemmed as FTS5 stems: "fractured" finds "fractures".
    expect((await ix.search(q('fractured'), 10)).map((h) => h.snippetId).sort()).toEqual([1, 3]);
    expect((await ix.search(q('fractures'), 10, { from: new Date('2024-01-01') })).map((h) => h.snippetId)).toEqual([1]);
    expect((await ix.search(q('stocks'), 10, { sources: ['wire'] })).map((h) => h.snippetId)).toEqual([]);
    expect((await ix.search(q('stocks'), 10, { sources: [] })).map((h) => h.snippetId)).toEqual([]);
    expect(await ix.count()).toBe(3);
    await ix.bulk([], [3, 99]); // deleting an id ES does not have is fine
    await ix.refresh();
    expect(await ix.ids()).toEqual([1, 2]);
  });

  it('never sends query syntax: hostile text reaches combined_fields as tokens only', async () => {
    const ix = index('docs', 2);
    const hostile = 'vitamin AND (title:x OR "y") * NEAR/3 \\ { } [ ] ~ ^ ! <script>';
    const hits = await ix.search({ text: hostile, terms: hostile.split(' ') }, 5);
    expect(hits.map((h) => h.snippetId)).toEqual([1]);
    const body = searchBody(['vitamin', 'and', 'titl', 'x'], 5, 2);
    expect(JSON.stringify(body)).not.toContain('query_string');
    expect(body.query.bool.must[0]!.combined_fields).toMatchObject({
      query: 'vitamin and titl x',
      fields: ['title^2', 'text'],
      operator: 'or',
    });
    expect(await code(ix.search({ text: '*** ???', terms: ['*', '???'] }, 5))).toBe('QUERY_UNUSABLE');
    expect(await ix.search(q('vitamin'), 0)).toEqual([]);
  });

  it('maps failures to INDEX_UNAVAILABLE with the reason', async () => {
    const ix = index('closed');
    await ix.bulk(analysedDocs([row(1, 'a', 'b')]), []);
    const client = rawClient(es.url);
    await client.indices.close({ index: `${prefix}-closed` });
    const err = await ix.search(q('b'), 5).catch((e) => e);
    expect(isQuinError(err, 'INDEX_UNAVAILABLE')).toBe(true);
    expect(err.message).toContain('index_closed_exception');
    await client.close();
    expect(
      String(
        (
          await index('missing')
            .count()
            .catch((e) => e)
        ).message,
      ),
    ).toContain('index_not_found_exception');
    const down = new ElasticsearchIndex({ url: 'http://127.0.0.1:9', index: 'x', titleBoost: 1.5, timeoutMs: 2000 });
    const unreachable = await down.count().catch((e) => e);
    expect(isQuinError(unreachable, 'INDEX_UNAVAILABLE')).toBe(true);
    expect(unreachable.message).toMatch(/Elasticsearch at http:\/\/127\.0\.0\.1:9\/ unreachable/);
    await down.close();
  });

  it('reports a document Elasticsearch refuses, naming the snippet and the reason', async () => {
    const ix = index('refused');
    const [doc] = analysedDocs([row(5, 't', 'x')]);
    const err = await ix.bulk([{ ...doc!, published_at: 'not a date' }], []).catch((e) => e);
    expect(isQuinError(err, 'INDEX_UNAVAILABLE')).toBe(true);
    expect(err.message).toMatch(/bulk index of snippet 5 failed: document_parsing_exception/);
  });

  it('refuses a server that is not Elasticsearch (product check)', async () => {
    const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"count": 1}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const ix = new ElasticsearchIndex({ url, index: 'x', titleBoost: 1.5, timeoutMs: 2000 });
    const err = await ix.count().catch((e) => e);
    expect(isQuinError(err, 'INDEX_UNAVAILABLE')).toBe(true);
    expect(err.message).toContain('not Elasticsearch');
    await ix.close();
    server.close();
  });
});
