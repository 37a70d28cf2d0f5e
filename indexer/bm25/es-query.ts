/**
 * Elasticsearch request bodies (pure): the index definition and a safely built search. User text only
 * ever reaches a `multi_match` query, which analyzes it as plain text (no query syntax is parsed,
 * unlike `query_string`), so quotes, AND/OR, `*`, `:` or brackets are just characters.
 */
import { createError } from '../../lib/errors';
import type { IndexFilter, SparseQuery } from '../types';

/** Longest query text sent (the analyzer drops stop words; ES caps boolean clauses at 1024). */
export const MAX_ES_QUERY_CHARS = 4000;
const WORDLIKE = /[\p{L}\p{N}]/u;

export const ES_INDEX_SETTINGS = {
  number_of_shards: 1,
  analysis: { analyzer: { default: { type: 'english' } } },
} as const;

export const ES_MAPPINGS = {
  dynamic: 'strict',
  properties: {
    snippet_id: { type: 'long' },
    title: { type: 'text', analyzer: 'english' },
    text: { type: 'text', analyzer: 'english' },
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

/** The text to analyze: the user's text, else the word tokens; never empty. */
export function queryText(query: SparseQuery): string {
  const text = typeof query.text === 'string' ? query.text.trim() : '';
  const fromText = text && WORDLIKE.test(text) ? text : '';
  const fromTerms = (query.terms ?? []).filter((t) => typeof t === 'string' && WORDLIKE.test(t)).join(' ');
  const chosen = (fromText || fromTerms).slice(0, MAX_ES_QUERY_CHARS);
  if (!chosen) throw createError('QUERY_UNUSABLE', 'the query has no searchable words');
  return chosen;
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

/** The search request body: BM25 over title (boosted) and text, filters as non-scoring clauses. */
export function searchBody(query: SparseQuery, k: number, titleBoost: number, filter?: IndexFilter) {
  return {
    size: k,
    _source: false,
    track_total_hits: false,
    query: {
      bool: {
        must: [{ multi_match: { query: queryText(query), fields: [`title^${titleBoost}`, 'text'], type: 'most_fields', operator: 'or' } }],
        filter: filterClauses(filter),
      },
    },
  };
}

export function toEsDoc(row: { id: number; title: string; text: string; source: string; publishedAt: Date | null }): EsDoc {
  return {
    snippet_id: row.id,
    title: row.title,
    text: row.text,
    source: row.source,
    published_at: row.publishedAt ? row.publishedAt.toISOString() : null,
  };
}
