/**
 * What the indexer does with a BM25 backend. SQLite FTS5 (in the database or in its own file) and
 * Elasticsearch each implement all of it, so no caller asks which one it has (after Orama's
 * components: one interface, one implementation per backend chosen by configuration).
 */
import type { Db } from '../../lib/db/client';
import type { SnippetToIndex } from '../state';
import type { Bm25Index, DenseIndex } from '../types';

export type Bm25Location = 'fts5' | 'fts5-file' | 'elasticsearch';

export interface Bm25SyncStats {
  backend: Bm25Location;
  added: number;
  removed: number;
  seconds: number;
}

export interface Bm25SyncOptions {
  batchSize: number;
  signal?: AbortSignal;
  rebuild?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** For a backend that holds the snippet vectors too (Elasticsearch with QUIN_ES_DENSE): the encoder and the vectors of rows. */
  vectors?: SnippetVectorSource;
}

export interface SnippetVectorSource {
  /** The encoder's id (a different one re-indexes everything) and dimension. */
  id: string;
  dim: number;
  of(rows: readonly SnippetToIndex[]): Promise<Float32Array[]>;
}

export interface Bm25Status {
  indexed: number | null;
  pending: number | null;
  bytes: number | null;
  /** Elasticsearch: the cluster's health and the index's (or why it could not be read). */
  cluster?: EsClusterStatus | { error: string };
}

export interface EsClusterStatus {
  name: string;
  status: 'green' | 'yellow' | 'red';
  nodes: number;
  dataNodes: number;
  /** Null until the index exists. */
  index: { status: 'green' | 'yellow' | 'red'; shards: number; unassigned: number } | null;
}

export interface Bm25Verify {
  /** Facts checked, for the report. */
  facts: Record<string, number | string>;
  /** Human-readable differences (empty when the index holds exactly the database's snippets). */
  problems: string[];
}

export interface Bm25Backend extends Bm25Index {
  readonly location: Bm25Location;
  /** Brings the index in step with the snippets table: only what changed, or everything on `rebuild`. */
  sync(db: Db, opts: Bm25SyncOptions): Promise<Bm25SyncStats>;
  /** Compares the index with the database's snippet ids (ascending). */
  verify(db: Db, dbIds: readonly number[]): Promise<Bm25Verify>;
  /** Counts and size, cheap (dashboard, `quin index --status`). */
  status(db: Db, snippets: number): Promise<Bm25Status>;
  /** The kNN side of a backend that holds the vectors too (QUIN_ES_DENSE); absent otherwise. */
  denseView?(): Promise<DenseIndex>;
  /** Removes a backend's own remote index (Elasticsearch); absent where the index lives in our files. */
  dropIndex?(): Promise<void>;
  close(): Promise<void>;
}
