/**
 * The indexer's query-side contract, used by ranking/. (Write-side details stay inside indexer/.)
 * Each component is an interface with a default implementation chosen by configuration, after
 * Orama's components: SQLite FTS5 ↔ Elasticsearch for BM25, static ↔ ONNX for the encoder.
 */

/** A scored snippet from one index. Higher scores are better within one run. */
export interface Hit {
  snippetId: number;
  score: number;
}

/** Restrictions pushed down to an index where it can apply them (FTS5/ES can; FAISS cannot). */
export interface IndexFilter {
  from?: Date;
  to?: Date;
  sources?: string[];
}

export interface SparseQuery {
  /** The user's text (what was asked; both backends search `terms`, Elasticsearch through FTS5's own tokenizer). */
  text: string;
  /** Word tokens already cleaned by ranking/ (never raw FTS5 syntax). */
  terms: string[];
}

export interface Bm25Index {
  readonly backend: 'fts5' | 'elasticsearch';
  /**
   * Any token list gives hits or a QuinError (QUERY_UNUSABLE when no token has a letter or digit;
   * INDEX_UNAVAILABLE when the backend fails), never a raw SQLite/HTTP exception. Filters on dates
   * exclude snippets without a date.
   */
  search(query: SparseQuery, k: number, filter?: IndexFilter): Promise<Hit[]>;
  count(): Promise<number>;
}

export interface Encoder {
  /** Stable identity of the model (part of every cache key), e.g. "use-lite" or "onnx:all-MiniLM-L6-v2@<hash>". */
  readonly id: string;
  readonly dim: number;
  /** L2-normalised embeddings, one per text, in input order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * The same, synchronously: offered by encoders cheaper to run than to read back from disk (the
   * static encoder), whose vectors are computed where needed and never cached.
   */
  embedSync?(texts: readonly string[]): Float32Array[];
  /** BM25's weight in the hybrid fusion fitted for this encoder (its model folder's fusion.json), when there is one. */
  readonly fusionBm25Weight?: number;
  close?(): Promise<void>;
}

/** Cosines from which a dense hit counts as a match (ranking/floor.ts), measured per encoder and corpus at index time. */
export interface DenseThresholds {
  /** A dense hit matches although it holds few of the query's words. */
  matchMin: number;
  /** No candidate holds any of the query's words: only this close a meaning counts. */
  onlyMin: number;
}

export interface DenseIndex {
  /** Scores are inner products of normalised vectors (cosine). Snippets deleted since the index was last reloaded may still appear: ranking drops ids it cannot load. */
  search(query: Float32Array, k: number): Promise<Hit[]>;
  /** Live vectors (deleted snippets not counted). */
  size(): number;
  /**
   * Re-checks the indexer's checkpoint (at most every few seconds) and loads a newer index, so that
   * a long-running reader picks up the first checkpoint of an index that was empty when it opened.
   */
  refresh?(): Promise<void>;
  /** The relevance floor calibrated for this index (indexer/dense/floor-calibration.ts); null when none was measured. */
  floor?(): DenseThresholds | null;
  /** Releases what the index holds outside the heap (a search thread's file map). */
  close?(): void;
}

/** Cached sentence embeddings by text (content hash inside); null where a sentence was never embedded. */
export interface SentenceVectors {
  get(sentences: string[]): Promise<(Float32Array | null)[]>;
}

/** Everything ranking/ needs, opened once per process (CLI run, web server) and reused. */
export interface SearchIndexes {
  bm25: Bm25Index;
  /**
   * Null when FAISS cannot serve in this process (binding not built, or the index on disk was built
   * with another encoder). An index not built yet is present with size() 0 and picks up the first
   * checkpoint by itself (readers re-check every few seconds).
   */
  dense: DenseIndex | null;
  /** The encoder of the dense index on disk (its checkpoint names it), else the configured one. */
  encoder: Encoder;
  /** Set when the configured encoder differs from the dense index's: what is searched, and what `quin index` would do. */
  note?: string | null;
  sentenceVectors: SentenceVectors;
  close(): Promise<void>;
}
