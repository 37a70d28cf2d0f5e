/**
 * FOR TESTS: no Elasticsearch server can run on this project's machines, so the Elasticsearch backend
 * is tested against this HTTP server on 127.0.0.1, which answers the requests our code makes the way
 * the Elasticsearch REST API documents them: the `X-Elastic-Product: Elasticsearch` header the client
 * checks, `HEAD/PUT/DELETE /<index>`, `POST /_bulk` (NDJSON, per-item results, `errors` flag),
 * `POST /<index>/_search` (bool / multi_match / match_all / range / terms, sort + search_after,
 * `_source: false`), `knn` on a `dense_vector` field (exact dot product, scored (1 + dot) / 2 as ES
 * scores `dot_product`; unit length and `dims` checked at indexing as ES does; `filter`),
 * `PUT /<index>/_mapping` (a new field; a changed one is refused), `/<index>/_count`, `/<index>/_refresh`
 * (documents become searchable only after a refresh, as in ES), `/<index>/_stats`, error bodies
 * `{error: {type, reason}, status}`. Scoring is BM25 over a small English-like analyzer: lowercase,
 * stop words, a crude plural stemmer. It is not Elasticsearch; it lets tests check our requests and
 * our handling of real response shapes.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

type Doc = Record<string, unknown> & { snippet_id?: number; title?: string; text?: string; source?: string; published_at?: string | null };

interface FakeIndex {
  settings: unknown;
  mappings: unknown;
  docs: Map<string, Doc>;
  /** What searches see: the docs as of the last refresh. */
  visible: Map<string, Doc>;
}

export interface EsRequestLog {
  method: string;
  path: string;
  body: string;
}

export interface FakeElasticsearch {
  url: string;
  indices: Map<string, FakeIndex>;
  requests: EsRequestLog[];
  /** Make the next n requests whose path matches fail with HTTP status (e.g. 503) or hang up. */
  failNext(match: RegExp, n: number, status: number | 'hangup'): void;
  close(): Promise<void>;
}

const STOP = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

export function analyze(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((t) => !STOP.has(t))
    .map((t) => (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t));
}

function error(res: ServerResponse, status: number, type: string, reason: string): void {
  send(res, status, { error: { root_cause: [{ type, reason }], type, reason }, status });
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, { 'X-Elastic-Product': 'Elasticsearch', 'Content-Type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

function bm25(index: FakeIndex, fields: { name: string; boost: number }[], terms: string[]): Map<string, number> {
  const scores = new Map<string, number>();
  const docs = [...index.visible.entries()];
  const n = docs.length;
  for (const { name, boost } of fields) {
    const toks = new Map(docs.map(([id, d]) => [id, analyze(String(d[name] ?? ''))]));
    const avg = [...toks.values()].reduce((a, t) => a + t.length, 0) / Math.max(n, 1);
    for (const term of new Set(terms)) {
      const df = [...toks.values()].filter((t) => t.includes(term)).length;
      if (!df) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (const [id, t] of toks) {
        const tf = t.filter((x) => x === term).length;
        if (!tf) continue;
        const s = (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * t.length) / Math.max(avg, 1e-9)));
        scores.set(id, (scores.get(id) ?? 0) + boost * s);
      }
    }
  }
  return scores;
}

function passesFilters(doc: Doc, filters: Record<string, unknown>[]): boolean {
  for (const f of filters) {
    if (f.range) {
      const [field, cond] = Object.entries(f.range as Record<string, { gte?: string; lte?: string }>)[0]!;
      const v = doc[field];
      if (typeof v !== 'string') return false;
      const t = Date.parse(v);
      if (cond.gte !== undefined && t < Date.parse(cond.gte)) return false;
      if (cond.lte !== undefined && t > Date.parse(cond.lte)) return false;
    } else if (f.terms) {
      const [field, values] = Object.entries(f.terms as Record<string, unknown[]>)[0]!;
      if (!values.includes(doc[field])) return false;
    } else {
      throw new Error(`unsupported filter ${JSON.stringify(f)}`);
    }
  }
  return true;
}

interface SearchBody {
  size?: number;
  query?: { match_all?: object; bool?: { must?: Record<string, unknown>[]; filter?: Record<string, unknown>[] } };
  knn?: { field: string; query_vector: number[]; k: number; num_candidates: number; filter?: Record<string, unknown>[] };
  sort?: Record<string, string>[];
  search_after?: number[];
}

type VectorMapping = { type: string; dims: number; similarity?: string };

function vectorFields(index: FakeIndex): Map<string, VectorMapping> {
  const props = ((index.mappings as { properties?: Record<string, VectorMapping> } | undefined)?.properties ?? {}) as Record<
    string,
    VectorMapping
  >;
  return new Map(Object.entries(props).filter(([, m]) => m.type === 'dense_vector'));
}

/** Why ES would refuse this document's vectors, or null. */
function vectorProblem(index: FakeIndex, doc: Doc): string | null {
  const fields = vectorFields(index);
  for (const [name, v] of Object.entries(doc)) {
    if (!Array.isArray(v)) continue;
    const m = fields.get(name);
    if (!m) return `mapping set to strict, dynamic introduction of [${name}] is not allowed`;
    if (v.length !== m.dims)
      return `The [dense_vector] field [${name}] has a different number of dimensions [${v.length}] than defined in the mapping [${m.dims}]`;
    const norm = Math.hypot(...(v as number[]));
    if (m.similarity === 'dot_product' && Math.abs(norm - 1) > 1e-4)
      return `The [dot_product] similarity can only be used with unit-length vectors.`;
  }
  return null;
}

function knn(index: FakeIndex, body: NonNullable<SearchBody['knn']>): [string, number][] {
  if (!vectorFields(index).has(body.field)) throw new Error(`failed to create query: field [${body.field}] does not exist in the mapping`);
  if (body.k > body.num_candidates) throw new Error('[num_candidates] cannot be less than [k]');
  const q = body.query_vector;
  const scored: [string, number][] = [];
  for (const [id, doc] of index.visible) {
    const v = doc[body.field] as number[] | undefined;
    if (!v || !passesFilters(doc, body.filter ?? [])) continue;
    let dot = 0;
    for (let i = 0; i < q.length; i++) dot += q[i]! * v[i]!;
    scored.push([id, (1 + dot) / 2]);
  }
  return scored.sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0])).slice(0, body.k);
}

function search(index: FakeIndex, body: SearchBody): object {
  const size = body.size ?? 10;
  const q = body.query ?? { match_all: {} };
  let scored: [string, number][];
  if (body.knn) scored = knn(index, body.knn);
  else if (q.match_all) scored = [...index.visible.keys()].map((id) => [id, 1]);
  else if (q.bool) {
    const must = q.bool.must ?? [];
    if (must.length !== 1 || !must[0]!.multi_match) throw new Error(`unsupported query ${JSON.stringify(q)}`);
    const mm = must[0]!.multi_match as { query: string; fields: string[] };
    const fields = mm.fields.map((f) => {
      const [name, boost] = f.split('^');
      return { name: name!, boost: boost ? Number(boost) : 1 };
    });
    scored = [...bm25(index, fields, analyze(mm.query)).entries()];
    scored = scored.filter(([id]) => passesFilters(index.visible.get(id)!, q.bool!.filter ?? []));
  } else throw new Error(`unsupported query ${JSON.stringify(q)}`);
  let hits: { _index: string; _id: string; _score: number | null; sort?: number[] }[];
  if (body.sort) {
    const field = Object.keys(body.sort[0]!)[0]!;
    const rows = scored.map(([id]) => ({ id, key: Number(index.visible.get(id)![field]) })).sort((a, b) => a.key - b.key);
    const after = body.search_after?.[0];
    hits = rows.filter((r) => after === undefined || r.key > after).map((r) => ({ _index: '', _id: r.id, _score: null, sort: [r.key] }));
  } else {
    hits = scored.sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0])).map(([id, s]) => ({ _index: '', _id: id, _score: s }));
  }
  return {
    took: 1,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: { max_score: hits[0]?._score ?? null, hits: hits.slice(0, size) },
  };
}

function bulk(indices: Map<string, FakeIndex>, defaultIndex: string | undefined, ndjson: string): object {
  const lines = ndjson.split('\n').filter((l) => l.trim());
  const items: object[] = [];
  let errors = false;
  for (let i = 0; i < lines.length; i++) {
    const action = JSON.parse(lines[i]!) as Record<string, { _index?: string; _id?: string }>;
    const [op, meta] = Object.entries(action)[0]!;
    const name = meta._index ?? defaultIndex ?? '';
    const index = indices.get(name);
    const id = String(meta._id);
    if (op === 'index') {
      const doc = JSON.parse(lines[++i]!) as Doc;
      if (!index) {
        errors = true;
        items.push({
          index: { _index: name, _id: id, status: 404, error: { type: 'index_not_found_exception', reason: `no such index [${name}]` } },
        });
        continue;
      }
      const problem = vectorProblem(index, doc);
      if (problem) {
        errors = true;
        items.push({ index: { _index: name, _id: id, status: 400, error: { type: 'document_parsing_exception', reason: problem } } });
        continue;
      }
      const created = !index.docs.has(id);
      index.docs.set(id, doc);
      items.push({ index: { _index: name, _id: id, result: created ? 'created' : 'updated', status: created ? 201 : 200 } });
    } else if (op === 'delete') {
      const found = index?.docs.delete(id) ?? false;
      items.push({ delete: { _index: name, _id: id, result: found ? 'deleted' : 'not_found', status: found ? 200 : 404 } });
    } else throw new Error(`unsupported bulk action ${op}`);
  }
  return { took: 1, errors, items };
}

export async function startFakeElasticsearch(): Promise<FakeElasticsearch> {
  const indices = new Map<string, FakeIndex>();
  const requests: EsRequestLog[] = [];
  const failures: { match: RegExp; n: number; status: number | 'hangup' }[] = [];
  const sockets = new Set<Socket>();

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    requests.push({ method, path: url.pathname, body: raw });
    const fail = failures.find((f) => f.n > 0 && f.match.test(url.pathname));
    if (fail) {
      fail.n -= 1;
      if (fail.status === 'hangup') return req.socket.destroy();
      return error(res, fail.status, 'unavailable_shards_exception', 'injected failure');
    }
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const body = raw && !url.pathname.endsWith('_bulk') ? (JSON.parse(raw) as Record<string, unknown>) : {};
    if (parts.length === 0)
      return send(res, 200, { name: 'fake', cluster_name: 'test', version: { number: '9.4.0' }, tagline: 'You Know, for Search' });
    if (parts[0] === '_bulk') return send(res, 200, bulk(indices, undefined, raw));
    const [name, action, id] = parts as [string, string | undefined, string | undefined];
    const index = indices.get(name);
    if (!action) {
      if (method === 'HEAD') return send(res, index ? 200 : 404);
      if (method === 'PUT') {
        if (index) return error(res, 400, 'resource_already_exists_exception', `index [${name}] already exists`);
        indices.set(name, { settings: body.settings, mappings: body.mappings, docs: new Map(), visible: new Map() });
        return send(res, 200, { acknowledged: true, shards_acknowledged: true, index: name });
      }
      if (method === 'DELETE') {
        if (!index) return error(res, 404, 'index_not_found_exception', `no such index [${name}]`);
        indices.delete(name);
        return send(res, 200, { acknowledged: true });
      }
    }
    if (action === '_bulk') return send(res, 200, bulk(indices, name, raw));
    if (!index) return error(res, 404, 'index_not_found_exception', `no such index [${name}]`);
    if (action === '_mapping' && method === 'PUT') {
      const mappings = (index.mappings ?? {}) as { properties?: Record<string, unknown> };
      const props = (mappings.properties ??= {});
      for (const [field, m] of Object.entries((body as { properties?: Record<string, unknown> }).properties ?? {})) {
        if (props[field] !== undefined && JSON.stringify(props[field]) !== JSON.stringify(m))
          return error(res, 400, 'illegal_argument_exception', `mapper [${field}] cannot be changed`);
        props[field] = m;
      }
      index.mappings = mappings;
      return send(res, 200, { acknowledged: true });
    }
    if (action === '_refresh') {
      index.visible = new Map(index.docs);
      return send(res, 200, { _shards: { total: 1, successful: 1, failed: 0 } });
    }
    if (action === '_count')
      return send(res, 200, { count: index.visible.size, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
    if (action === '_stats')
      return send(res, 200, { _all: { primaries: { store: { size_in_bytes: JSON.stringify([...index.docs.values()]).length } } } });
    if (action === '_search') {
      try {
        return send(res, 200, search(index, body as SearchBody));
      } catch (e) {
        return error(res, 400, 'parsing_exception', (e as Error).message);
      }
    }
    if (action === '_doc' && id && method === 'DELETE') {
      const found = index.docs.delete(id);
      return send(res, found ? 200 : 404, { _index: name, _id: id, result: found ? 'deleted' : 'not_found' });
    }
    return error(res, 400, 'illegal_argument_exception', `unsupported ${method} ${url.pathname}`);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        handle(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch (e) {
        error(res, 500, 'exception', (e as Error).message);
      }
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    indices,
    requests,
    failNext(match, n, status) {
      failures.push({ match, n, status });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
