/**
 * BM25 with Elasticsearch (ELASTICSEARCH_URL), through the official client. All access to the cluster
 * goes through this module, which maps client failures onto our error codes: unreachable or timed out
 * → INDEX_UNAVAILABLE naming the URL; an error response → INDEX_UNAVAILABLE with ES's own reason.
 * Documents are keyed by snippet id (`_id`), so re-sending a document or a delete is harmless.
 */
import { type Client, errors } from '@elastic/elasticsearch';
import { createError, isQuinError } from '../../lib/errors';
import type { Db } from '../../lib/db/client';
import { diffIds, idProblems, sampleIds } from '../diff';
import { esLedger } from '../state';
import type { DenseIndex, Hit, IndexFilter, SparseQuery } from '../types';
import type { Bm25Backend, Bm25Status, Bm25SyncOptions, Bm25SyncStats, Bm25Verify, EsClusterStatus } from './backend';
import { fts5Analyzer } from './es-analysis';
import { esClient, redactUrl, type EsConnection } from './es-client';
import { syncElasticsearch } from './es-sync';
import {
  cosineOfKnnScore,
  esIndexSettings,
  esMappings,
  knnBody,
  searchBody,
  VECTOR_FIELD,
  vectorMapping,
  type EsDoc,
  type EsLayout,
} from './es-query';

export interface EsOptions extends EsConnection {
  index: string;
  /** Weight of the title's occurrences (BM25_TITLE_WEIGHT, as FTS5's column weight); at least 1. */
  titleBoost: number;
  /** Shards and replicas of an index this creates. */
  layout?: EsLayout;
}

/** How often the kNN view re-counts the documents it reports as its size. */
const COUNT_RECHECK_MS = 5000;

/** Deadline of each read behind /api/health and `quin index --status` (the cluster's health answers in milliseconds). */
export const CLUSTER_HEALTH_TIMEOUT_MS = 800;

/** Longest page of ids read back when listing what the index holds. */
const ID_PAGE = 10_000;

export class ElasticsearchIndex implements Bm25Backend {
  readonly backend = 'elasticsearch' as const;
  readonly location = 'elasticsearch' as const;
  private readonly client: Client;
  private ensured = false;

  constructor(private readonly opts: EsOptions) {
    this.client = esClient(opts);
  }

  get index(): string {
    return this.opts.index;
  }

  private async call<T>(what: string, fn: () => Promise<T>, timeoutMs = this.opts.timeoutMs): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (isQuinError(e)) throw e;
      const where = `Elasticsearch at ${redactUrl(this.opts.url)}`;
      if (e instanceof errors.ResponseError) {
        const body = e.meta.body as { error?: { type?: string; reason?: string } } | undefined;
        const reason = body?.error ? `${body.error.type ?? 'error'}: ${body.error.reason ?? ''}` : `HTTP ${e.meta.statusCode}`;
        throw createError('INDEX_UNAVAILABLE', `${where}: ${what} failed (${reason})`, { status: e.meta.statusCode }, e);
      }
      if (e instanceof errors.ProductNotSupportedError)
        throw createError('INDEX_UNAVAILABLE', `${where} is not Elasticsearch (product check failed)`, undefined, e);
      // The cluster is named (password removed) for the reader too (`publicMessage`, lib/web/http.ts).
      if (e instanceof errors.TimeoutError) {
        const message = `${where}: ${what} timed out after ${timeoutMs} ms`;
        throw createError('INDEX_UNAVAILABLE', message, { publicMessage: `${where} did not answer in time` }, e);
      }
      const refused = /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ECONNRESET/.exec((e as Error).message)?.[0];
      const why = refused === 'ECONNREFUSED' ? 'connection refused' : refused === 'ENOTFOUND' ? 'no such host' : (refused ?? 'no answer');
      throw createError(
        'INDEX_UNAVAILABLE',
        `${where} unreachable (${what}): ${(e as Error).message}`,
        { publicMessage: `${where} is unreachable (${why})` },
        e,
      );
    }
  }

  /**
   * Creates the index (token fields, FTS5's k1 and b; with `dim`, the vector field too) when it does not
   * exist; adds the vector field to an existing index that lacks it (ES refuses a change of dims).
   */
  async ensureIndex(dim?: number): Promise<void> {
    if (this.ensured) return;
    const index = this.opts.index;
    const exists = await this.call('index exists', () => this.client.indices.exists({ index }));
    if (exists && dim)
      await this.call('add the vector field', () =>
        this.client.indices.putMapping({ index, properties: { [VECTOR_FIELD]: vectorMapping(dim) } } as never),
      );
    if (!exists) {
      try {
        const settings = esIndexSettings(this.opts.layout ?? { shards: 1, replicas: 'auto' });
        await this.client.indices.create({ index, settings, mappings: esMappings(dim) } as never);
      } catch (e) {
        // Another process created it first: fine.
        const type = e instanceof errors.ResponseError ? (e.meta.body as { error?: { type?: string } })?.error?.type : undefined;
        if (type !== 'resource_already_exists_exception') await this.call('index create', () => Promise.reject(e));
      }
    }
    this.ensured = true;
  }

  async search(query: SparseQuery, k: number, filter?: IndexFilter): Promise<Hit[]> {
    if (!Number.isFinite(k) || k < 1) return [];
    const tokens = fts5Analyzer().queryTokens(query.terms);
    const body = searchBody(tokens, Math.min(Math.floor(k), 10_000), this.opts.titleBoost, filter);
    const res = await this.call('search', () => this.client.search({ index: this.opts.index, ...body } as never));
    const hits = (res as { hits: { hits: { _id?: string; _score?: number | null }[] } }).hits.hits;
    return hits.filter((h) => h._id !== undefined).map((h) => ({ snippetId: Number(h._id), score: h._score ?? 0 }));
  }

  /** kNN over the vector field; scores as cosines (inner products of unit vectors). */
  async knn(vector: Float32Array, k: number, filter?: IndexFilter): Promise<Hit[]> {
    if (!Number.isFinite(k) || k < 1) return [];
    const body = knnBody(vector, Math.min(Math.floor(k), 10_000), filter);
    const res = await this.call('kNN search', () => this.client.search({ index: this.opts.index, ...body } as never));
    const hits = (res as { hits: { hits: { _id?: string; _score?: number | null }[] } }).hits.hits;
    return hits.filter((h) => h._id !== undefined).map((h) => ({ snippetId: Number(h._id), score: cosineOfKnnScore(h._score ?? 0) }));
  }

  /** The dense side when this index holds the vectors (QUIN_ES_DENSE). */
  async denseView(): Promise<DenseIndex> {
    let size = await this.count().catch(() => 0);
    let checked = Date.now();
    return {
      search: async (query, k) => {
        if (Date.now() - checked > COUNT_RECHECK_MS) {
          checked = Date.now();
          size = await this.count().catch(() => size);
        }
        return this.knn(query, k);
      },
      size: () => size,
    };
  }

  async count(): Promise<number> {
    const res = await this.call('count', () => this.client.count({ index: this.opts.index }));
    return res.count;
  }

  /** Indexes and deletes documents in one bulk request; throws when any item failed. */
  async bulk(add: readonly EsDoc[], remove: readonly number[]): Promise<void> {
    if (add.length === 0 && remove.length === 0) return;
    await this.ensureIndex();
    const operations: object[] = [];
    for (const id of remove) operations.push({ delete: { _index: this.opts.index, _id: String(id) } });
    for (const doc of add) operations.push({ index: { _index: this.opts.index, _id: String(doc.snippet_id) } }, doc);
    const res = await this.call('bulk', () => this.client.bulk({ operations }));
    if (!res.errors) return;
    for (const item of res.items) {
      const [action, r] = Object.entries(item)[0] as [
        string,
        { status: number; _id?: string | null; error?: { type?: string; reason?: string } },
      ];
      if (action === 'delete' && r.status === 404) continue; // already gone
      if (r.error || r.status >= 300) {
        throw createError(
          'INDEX_UNAVAILABLE',
          `Elasticsearch bulk ${action} of snippet ${r._id} failed: ${r.error?.type ?? r.status} ${r.error?.reason ?? ''}`.trim(),
        );
      }
    }
  }

  async refresh(): Promise<void> {
    await this.ensureIndex();
    await this.call('refresh', () => this.client.indices.refresh({ index: this.opts.index }));
  }

  /** Every snippet id the index holds, ascending (search_after over snippet_id). */
  async ids(): Promise<number[]> {
    await this.ensureIndex();
    const out: number[] = [];
    let after: number[] | undefined;
    for (;;) {
      const res = await this.call('list ids', () =>
        this.client.search({
          index: this.opts.index,
          size: ID_PAGE,
          _source: false,
          track_total_hits: false,
          query: { match_all: {} },
          sort: [{ snippet_id: 'asc' }],
          ...(after ? { search_after: after } : {}),
        } as never),
      );
      const hits = (res as { hits: { hits: { sort?: unknown[] }[] } }).hits.hits;
      for (const h of hits) out.push(Number(h.sort?.[0]));
      if (hits.length < ID_PAGE) return out;
      after = hits[hits.length - 1]!.sort as number[];
    }
  }

  /** Deletes the whole index (a rebuild starts from nothing). */
  async dropIndex(): Promise<void> {
    await this.call('index delete', () => this.client.indices.delete({ index: this.opts.index, ignore_unavailable: true }));
    this.ensured = false;
  }

  async sizeBytes(): Promise<number> {
    try {
      const res = await this.client.indices.stats({ index: this.opts.index, metric: 'store' });
      return res._all?.primaries?.store?.size_in_bytes ?? 0;
    } catch {
      return 0;
    }
  }

  /** Through the ledger es_entries (bm25/sync.ts), since Elasticsearch is not transactional with the database. */
  sync(db: Db, opts: Bm25SyncOptions): Promise<Bm25SyncStats> {
    return syncElasticsearch(db, this, { url: this.opts.url, index: this.opts.index }, opts);
  }

  async verify(db: Db, dbIds: readonly number[]): Promise<Bm25Verify> {
    await this.refresh();
    const ids = await this.ids();
    const ledger = await esLedger(db);
    const problems = idProblems('Elasticsearch', dbIds, ids);
    const pending = [...ledger].filter(([, s]) => s !== 'done').map(([id]) => id);
    if (pending.length) problems.push(`Elasticsearch ledger: ${sampleIds(pending)} writes not confirmed (an interrupted run)`);
    const ledgerDiff = diffIds(ids, [...ledger.keys()]);
    if (ledgerDiff.missing.length) problems.push(`Elasticsearch holds ${sampleIds(ledgerDiff.missing)} documents the ledger does not know`);
    return { facts: { indexed: ids.length, ledger: ledger.size }, problems };
  }

  async status(db: Db, snippets: number): Promise<Bm25Status> {
    const done = await db.esEntry.count({ where: { state: 'done' } });
    const cluster = await this.cluster().catch((e: Error) => ({ error: e.message }));
    // A cluster that did not answer is not asked for its size as well.
    const bytes = 'error' in cluster ? null : await this.sizeBytes();
    return { indexed: done, pending: Math.max(0, snippets - done), bytes, cluster };
  }

  /**
   * The cluster as the dashboard and /api/health show it: its health and this index's (yellow: a
   * replica is not assigned, e.g. a node is down; red: a primary is missing, searches miss documents).
   * `_cluster/health` rather than the client's ping()/info(): some distributions answer `GET /` with 405.
   */
  async cluster(): Promise<EsClusterStatus> {
    const index = this.opts.index;
    // Health must answer within a second whatever the cluster does: these reads have their own deadline.
    const quick = { requestTimeout: CLUSTER_HEALTH_TIMEOUT_MS };
    const ms = CLUSTER_HEALTH_TIMEOUT_MS;
    const c = await this.call('cluster health', () => this.client.cluster.health({}, quick), ms);
    const exists = await this.call('index exists', () => this.client.indices.exists({ index }, quick), ms);
    const i = exists ? await this.call('index health', () => this.client.cluster.health({ index }, quick), ms) : null;
    return {
      name: c.cluster_name,
      status: c.status.toLowerCase() as EsClusterStatus['status'],
      nodes: c.number_of_nodes,
      dataNodes: c.number_of_data_nodes,
      index: i
        ? { status: i.status.toLowerCase() as EsClusterStatus['status'], shards: i.active_primary_shards, unassigned: i.unassigned_shards }
        : null,
    };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
