/**
 * Index status for the dashboard, /api/health and /metrics: the indexer's report (indexStatus) in the
 * shape those views read.
 */
import { describeEsCluster, indexStatus, type IndexStatus } from '../../indexer';
import type { Config } from '../../lib/config';
import type { Db } from '../../lib/db/client';

export { describeEsCluster as describeCluster };

export interface IndexInfo {
  snippets: number;
  /** Per index: how many snippets it holds and its size on disk (bytes; null when unknown). */
  indexes: { name: string; backend: string; entries: number; bytes: number | null; version: number | null }[];
  /** Snippets not yet in every index. */
  pending: number;
  encoder: string | null;
  errors: string[];
  /** With ELASTICSEARCH_URL: the cluster's health and the index's, or why they could not be read. */
  cluster: IndexStatus['bm25']['cluster'] | null;
}

/** An unreachable cluster, or a red index (a primary shard missing: searches miss documents), fails readiness. */
export function clusterProblem(c: IndexInfo['cluster']): string | null {
  if (!c) return null;
  if ('error' in c) return `Elasticsearch: ${c.error}`;
  return c.index?.status === 'red' ? `Elasticsearch: ${describeEsCluster(c)}` : null;
}

export async function indexInfo(config: Config, db: Db): Promise<IndexInfo> {
  const s = await indexStatus(db, config);
  const bm25Pending = s.bm25.pending ?? s.snippets;
  const denseBackend = s.dense.available ? `FAISS ${s.dense.factory ?? ''}`.trim() : 'FAISS unavailable';
  return {
    snippets: s.snippets,
    indexes: [
      { name: 'BM25', backend: s.bm25.backend, entries: s.bm25.indexed ?? 0, bytes: s.bm25.bytes, version: null },
      { name: 'Dense', backend: denseBackend, entries: s.dense.indexed, bytes: s.dense.bytes, version: s.dense.version },
    ],
    pending: Math.max(bm25Pending, s.dense.available ? s.dense.pending : 0),
    encoder: s.dense.encoder ?? s.dense.configuredEncoder,
    errors: [...(s.bm25.error ? [`BM25: ${s.bm25.error}`] : []), ...[clusterProblem(s.bm25.cluster ?? null)].filter((e) => e !== null)],
    cluster: s.bm25.cluster ?? null,
  };
}
