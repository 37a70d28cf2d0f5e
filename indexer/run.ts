/**
 * `quin index` and the worker's indexing pass: brings every index in step with the snippets table,
 * doing only what changed since the last checkpoint (new, changed — new ids — and deleted snippets).
 * One indexer per data dir at a time (lock file); safe to kill at any moment (see dense/sync.ts and
 * bm25/sync.ts for the protocols), the next run completes what was left.
 */
import type { Config } from '../lib/config';
import type { Db } from '../lib/db/client';
import { createLogger } from '../lib/log';
import { createProgress, type Progress } from '../lib/progress';
import { ElasticsearchIndex } from './bm25/elasticsearch';
import { Fts5Index, type ImpactRefresh } from './bm25/fts5';
import { syncElasticsearch, syncFtsFile, type Bm25SyncStats } from './bm25/sync';
import { syncDense, type DenseSyncStats } from './dense/sync';
import { faissAvailable } from './dense/faiss-native';
import { createEncoder } from './encoders';
import { acquireIndexLock } from './files';
import { bm25Location, openBm25 } from './open';
import { countSnippets } from './state';
import { VectorCache } from './vectors/cache';

const log = createLogger('index');

export type ProgressFactory = (label: string, unit: string) => Progress;

export interface RunIndexOptions {
  signal?: AbortSignal;
  /** Progress display (default: lib/progress — a redrawn line on a terminal, log lines otherwise). `false` for none. */
  progress?: ProgressFactory | false;
  /** Rebuild every index from scratch (the sentence-vector cache is kept). */
  rebuild?: boolean;
}

export interface IndexRunStats {
  snippets: number;
  bm25: Bm25SyncStats;
  dense: DenseSyncStats | { skipped: string };
  encoder: string;
  seconds: number;
  /** Indexing throughput of this run (dense: snippets added per second; sentences embedded per second of encoder time). */
  snippetsPerSecond: number;
  sentencesPerSecond: number;
  aborted: boolean;
}

function tracker(factory: ProgressFactory | undefined, label: string, unit: string) {
  let p: Progress | undefined;
  let last = 0;
  return {
    update(done: number, total: number) {
      if (!factory || total === 0) return;
      p ??= factory(label, unit);
      p.setTotal(total);
      p.tick(done - last);
      last = done;
    },
    finish(summary?: string) {
      p?.done(summary);
    },
  };
}

export async function runIndex(db: Db, config: Config, opts: RunIndexOptions = {}): Promise<IndexRunStats> {
  const started = Date.now();
  const factory = opts.progress === false ? undefined : (opts.progress ?? ((label, unit) => createProgress({ label, unit })));
  const lock = acquireIndexLock(config.dataDir);
  try {
    const snippets = await countSnippets(db);
    log.info('indexing', { snippets, bm25: bm25Location(config), encoder: config.encoder });
    const bm25 = await syncBm25(db, config, opts, factory, snippets);
    let dense: IndexRunStats['dense'];
    if (!faissAvailable()) {
      dense = { skipped: 'FAISS binding not built (bash scripts/setup.d/40-faiss.sh)' };
      log.warn(`dense index skipped: ${dense.skipped}`);
    } else {
      const encoder = await createEncoder(config);
      const cache = new VectorCache(config.cacheDir, encoder.id, encoder.dim);
      const t = tracker(factory, 'dense index', 'snippets');
      try {
        dense = await syncDense(db, config, encoder, cache, { signal: opts.signal, rebuild: opts.rebuild, onProgress: (d, n) => t.update(d, n) });
        t.finish(`${dense.sentencesEmbedded} sentences embedded, ${dense.sentencesCached} from the cache`);
        const merged = cache.compact();
        if (merged) log.info(`merged ${merged} sentence-cache segments`);
      } finally {
        cache.close();
      }
    }
    const denseStats = 'added' in dense ? dense : null;
    return {
      snippets,
      bm25,
      dense,
      encoder: config.encoder === 'onnx' ? `onnx:${config.encoderModel}` : 'use-lite',
      seconds: (Date.now() - started) / 1000,
      snippetsPerSecond: denseStats && denseStats.seconds > 0 ? denseStats.added / denseStats.seconds : 0,
      sentencesPerSecond: denseStats && denseStats.embedSeconds > 0 ? denseStats.sentencesEmbedded / denseStats.embedSeconds : 0,
      aborted: opts.signal?.aborted === true,
    };
  } finally {
    lock.release();
  }
}

function logImpact(r: ImpactRefresh): void {
  if (r.built) log.info('BM25 accelerator rebuilt', { seconds: r.seconds });
}

async function syncBm25(db: Db, config: Config, opts: RunIndexOptions, factory: ProgressFactory | undefined, snippetsIn: number): Promise<Bm25SyncStats> {
  const where = bm25Location(config);
  const bm25 = openBm25(config);
  if (bm25 instanceof Fts5Index && bm25.mode === 'content') {
    // Triggers keep it in step; only an explicit rebuild touches it.
    const started = Date.now();
    try {
      if (opts.rebuild) bm25.rebuildContent();
      logImpact(bm25.refreshImpact(config.bm25ImpactMin));
    } finally {
      bm25.close();
    }
    return { backend: 'fts5', added: opts.rebuild ? snippetsIn : 0, removed: 0, seconds: (Date.now() - started) / 1000 };
  }
  const t = tracker(factory, `BM25 (${where})`, 'snippets');
  const sync = { batchSize: config.indexBatchSize, signal: opts.signal, rebuild: opts.rebuild, onProgress: (d: number, n: number) => t.update(d, n) };
  try {
    const stats =
      bm25 instanceof ElasticsearchIndex
        ? await syncElasticsearch(db, bm25, { url: config.elasticsearchUrl!, index: config.elasticsearchIndex }, sync)
        : await syncFtsFile(db, bm25, sync);
    if (bm25 instanceof Fts5Index) logImpact(bm25.refreshImpact(config.bm25ImpactMin));
    t.finish();
    return stats;
  } finally {
    if (bm25 instanceof ElasticsearchIndex) await bm25.close();
    else bm25.close();
  }
}
