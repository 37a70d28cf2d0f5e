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
import type { Bm25SyncStats, SnippetVectorSource } from './bm25/backend';
import type { SnippetToIndex } from './state';
import { snippetVectors } from './vectors/snippet-vectors';
import { EMBED_BATCH_SIZE, denseTuning, syncDense, type DenseSyncStats } from './dense/sync';
import { faissAvailable } from './dense/faiss-native';
import { createEncoder } from './encoders';
import { acquireIndexLock } from './files';
import { bm25Location, openBm25 } from './open';
import { countSnippets } from './state';
import { openSentenceStore } from './vectors/store';

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
    let dense: IndexRunStats['dense'];
    let encoderId: string = config.encoder;
    let bm25: Bm25SyncStats;
    if (config.elasticsearchUrl && config.elasticsearchDense) {
      // Elasticsearch holds the vectors too: they go with the documents, FAISS is not used.
      const encoder = await createEncoder(config);
      encoderId = encoder.id;
      const cache = openSentenceStore(config.cacheDir, encoder);
      try {
        const of = async (rows: readonly SnippetToIndex[]) =>
          (
            await snippetVectors(rows, encoder, cache, denseTuning(config).densePooling, {
              batchSize: EMBED_BATCH_SIZE,
              signal: opts.signal,
            })
          ).vectors;
        bm25 = await syncBm25(config, db, opts, factory, { id: encoder.id, dim: encoder.dim, of });
      } finally {
        cache.close();
      }
      dense = { skipped: 'the vectors are in Elasticsearch (elasticsearchDense)' };
    } else if (!faissAvailable()) {
      bm25 = await syncBm25(config, db, opts, factory);
      dense = { skipped: 'FAISS binding not built (bash scripts/setup.d/40-faiss.sh)' };
      log.warn(`dense index skipped: ${dense.skipped}`);
    } else {
      bm25 = await syncBm25(config, db, opts, factory);
      const encoder = await createEncoder(config);
      encoderId = encoder.id;
      const cache = openSentenceStore(config.cacheDir, encoder);
      const t = tracker(factory, 'dense index', 'snippets');
      try {
        dense = await syncDense(db, config, encoder, cache, {
          signal: opts.signal,
          rebuild: opts.rebuild,
          onProgress: (d, n) => t.update(d, n),
        });
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
      encoder: encoderId,
      seconds: (Date.now() - started) / 1000,
      snippetsPerSecond: denseStats && denseStats.seconds > 0 ? denseStats.added / denseStats.seconds : 0,
      sentencesPerSecond: denseStats && denseStats.embedSeconds > 0 ? denseStats.sentencesEmbedded / denseStats.embedSeconds : 0,
      aborted: opts.signal?.aborted === true,
    };
  } finally {
    lock.release();
  }
}

async function syncBm25(
  config: Config,
  db: Db,
  opts: RunIndexOptions,
  factory: ProgressFactory | undefined,
  vectors?: SnippetVectorSource,
): Promise<Bm25SyncStats> {
  const bm25 = openBm25(config);
  const t = tracker(factory, `BM25 (${bm25.location})`, 'snippets');
  try {
    const stats = await bm25.sync(db, {
      batchSize: denseTuning(config).indexBatchSize,
      signal: opts.signal,
      rebuild: opts.rebuild,
      onProgress: (d, n) => t.update(d, n),
      vectors,
    });
    t.finish();
    return stats;
  } finally {
    await bm25.close();
  }
}
