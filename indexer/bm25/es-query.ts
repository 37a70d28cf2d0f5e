/**
 * Elasticsearch request bodies (pure): the index definition and a safely built search. Documents and
 * queries carry the embedded BM25's own tokens (bm25/es-analysis.ts), so the index needs only the
 * `whitespace` analyzer that every distribution has, and scores with FTS5's k1 and b. User text only
 * ever reaches a `combined_fields` query as those tokens (no query syntax is parsed, unlike
 * `query_string`), so quotes, AND/OR, `*`, `:` or brackets never mean anything.
 */
import { createError } from '../../lib/errors';
import type { IndexFilter } from '../types';

/**
 * What the documents hold and how they are analysed; part of the sync target (bm25/sync.ts), so an
 * index written under another version (e.g. the `english` analyzer's) is dropped and written again.
 */
export const ES_MAPPING_VERSION = 'fts5-terms-1';

/** FTS5's bm25() constants (sqlite/ext/fts5/fts5_aux.c; bm25/impact.ts scores with the same). */
export const FTS5_BM25 = { k1: 1.2, b: 0.75 } as const;

export interface EsLayout {
  shards: number;
  /** A number, or 'auto': one replica once a second data node is there, none before (auto_expand_replicas 0-1). */
  replicas: number | 'auto';
}

export function esIndexSettings(layout: EsLayout) {
  return {
    number_of_shards: layout.shards,
    ...(layout.replicas === 'auto' ? { auto_expand_replicas: '0-1' } : { number_of_replicas: layout.replicas }),
    // The default similarity, not a per-field one: combined_fields refuses per-field similarities.
    similarity: { default: { type: 'BM25', ...FTS5_BM25 } },
  };
}

/** Token strings split on spaces; frequencies only (no positions: no phrase is ever searched). */
const TERMS_FIELD = { type: 'text', analyzer: 'whitespace', index_options: 'freqs' } as const;

export const ES_MAPPINGS = {
  dynamic: 'strict',
  properties: {
    snippet_id: { type: 'long' },
    title: TERMS_FIELD,
    text: TERMS_FIELD,
    source: { type: 'keyword' },
    published_at: { type: 'date' },
  },
} as const;

/** The mapping with the snippet vector as a `dense_vector` (HNSW-indexed, dot product of unit vectors). */
export function esMappings(dim?: number) {
  if (!dim) return ES_MAPPINGS;
  return { ...ES_MAPPINGS, properties: { ...ES_MAPPINGS.properties, [VECTOR_FIELD]: vectorMapping(dim) } };
}

export const VECTOR_FIELD = 'vector';

export function vectorMapping(dim: number) {
  return { type: 'dense_vector', dims: dim, index: true, similarity: 'dot_product' } as const;
}

export interface EsDoc {
  snippet_id: number;
  /** The title's and the text's tokens, space-separated (bm25/es-analysis.ts). */
  title: string;
  text: string;
  source: string;
  published_at: string | null;
  /** Unit-length snippet vector (absent for a snippet without any known token: ES refuses zero vectors). */
  vector?: number[];
}

/**
 * kNN over the vector field. `num_candidates` is the per-shard HNSW candidate list (ES's recall
 * knob; twice k, at least 100); filters apply during the kNN search, as ES pre-filters.
 */
export function knnBody(vector: Float32Array, k: number, filter?: IndexFilter) {
  const clauses = filterClauses(filter);
  return {
    size: k,
    _source: false,
    knn: {
      field: VECTOR_FIELD,
      query_vector: Array.from(vector),
      k,
      num_candidates: Math.min(10_000, Math.max(100, 2 * k)),
      ...(clauses.length ? { filter: clauses } : {}),
    },
  };
}

/** ES scores dot_product similarity as (1 + dot) / 2; the product works with the cosine itself. */
export const cosineOfKnnScore = (score: number) => 2 * score - 1;

/** The vector as a document field, or undefined for the zero vector. */
export function vectorField(v: Float32Array | undefined): number[] | undefined {
  if (!v) return undefined;
  let n = 0;
  for (const x of v) n += x * x;
  return n > 0 ? Array.from(v) : undefined;
}

function isoDate(d: Date | undefined, name: string): string | undefined {
  if (d === undefined) return undefined;
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw createError('INVALID_INPUT', `filter ${name} is not a valid date`);
  return d.toISOString();
}

export function filterClauses(filter: IndexFilter | undefined): object[] {
  const clauses: object[] = [];
  const gte = isoDate(filter?.from, 'from');
  const lte = isoDate(filter?.to, 'to');
  if (gte || lte) clauses.push({ range: { published_at: { ...(gte ? { gte } : {}), ...(lte ? { lte } : {}) } } });
  if (filter?.sources) clauses.push({ terms: { source: filter.sources.filter((s) => typeof s === 'string') } });
  return clauses;
}

/**
 * The search request body: BM25 over title and text as one field (`combined_fields`, BM25F: the
 * title's occurrences weighted, as FTS5's column weights weigh them in one score), any token
 * matching (FTS5's `"a" OR "b"`), filters as non-scoring clauses. `tokens` come from
 * Fts5Analyzer.queryTokens; none is QUERY_UNUSABLE, as FTS5 says.
 */
export function searchBody(tokens: readonly string[], k: number, titleWeight: number, filter?: IndexFilter) {
  if (tokens.length === 0) throw createError('QUERY_UNUSABLE', 'the query has no searchable words');
  // combined_fields accepts only weights ≥ 1 (they multiply term frequencies).
  if (!(titleWeight >= 1)) throw createError('CONFIG_INVALID', `Elasticsearch title weight must be ≥ 1 (got ${titleWeight})`);
  return {
    size: k,
    _source: false,
    track_total_hits: false,
    query: {
      bool: {
        must: [{ combined_fields: { query: tokens.join(' '), fields: [`title^${titleWeight}`, 'text'], operator: 'or' } }],
        filter: filterClauses(filter),
      },
    },
  };
}

export interface EsRow {
  id: number;
  title: string;
  text: string;
  source: string;
  publishedAt: Date | null;
}

/** A document from a snippet row and its analysed title and text (Fts5Analyzer.analyze). */
export function toEsDoc(row: EsRow, analysed: { title: string; text: string }): EsDoc {
  return {
    snippet_id: row.id,
    title: analysed.title,
    text: analysed.text,
    source: row.source,
    published_at: row.publishedAt ? row.publishedAt.toISOString() : null,
  };
}
