/**
 * The indexer's CPU priority. On a small machine the web server and the indexer share the cores, and
 * an index run (encoding, the HNSW graph's threads, the BM25 accelerator) takes them all for tens of
 * seconds: searches during it waited behind it. The indexing process lowers its own priority (nice
 * 10) before it starts any thread, so that the threads it starts later (libuv's pool, the graph's
 * and the models' native threads) inherit it on Linux; a search then takes a core when it needs one
 * and the indexer the rest. Lowering one's own priority needs no privilege.
 */
import os from 'node:os';

export const INDEXER_NICE = 10;

/** Lowers this process's priority to `nice` (never raises it); false when the platform refuses. */
export function lowerPriority(nice = INDEXER_NICE): boolean {
  try {
    if (os.getPriority() < nice) os.setPriority(nice);
    return true;
  } catch {
    return false;
  }
}
