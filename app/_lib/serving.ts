/**
 * What this web process itself searches with (not what the indexer has on disk): the BM25 backend
 * and the dense vectors its search context holds. The dense reader re-checks the indexer's
 * checkpoint first, so the dashboard and /api/health show a newly built dense index as soon as this
 * process serves it (and asking is enough to load it).
 */
import { searchContext, searchContextState } from './services';

export interface Serving {
  bm25: string;
  /** Live vectors of the dense index this process searches; 0 while none is built; null when FAISS cannot serve here. */
  denseVectors: number | null;
  /** The dense index was built with another encoder than the configured one: what is searched, and what `quin index` would do. */
  note?: string;
}

export async function servingIndexes(): Promise<Serving | null> {
  if (searchContextState() !== 'ready') return null;
  const { indexes } = await searchContext();
  const dense = indexes.dense;
  await dense?.refresh?.().catch(() => undefined);
  return { bm25: indexes.bm25.backend, denseVectors: dense ? dense.size() : null, ...(indexes.note ? { note: indexes.note } : {}) };
}

/** "BM25 (fts5) + dense (19,690 vectors)", or why dense is left out. */
export function describeServing(s: Serving): string {
  const note = s.note ? ` (${s.note})` : '';
  if (s.denseVectors === null) return `BM25 (${s.bm25}) only: the dense index cannot be served by this process${note}`;
  if (s.denseVectors === 0) return `BM25 (${s.bm25}) only: the dense index is not built yet`;
  return `BM25 (${s.bm25}) + dense (${s.denseVectors.toLocaleString('en')} vectors)${note}`;
}
