/**
 * Opening the indexes for queries: once per process (CLI run, web server, worker) and reused.
 * The BM25 backend follows the configuration (Elasticsearch when ELASTICSEARCH_URL is set, else FTS5
 * inside the SQLite database, or in a SQLite file in the data dir when the database is PostgreSQL);
 * the dense index is the FAISS file of the last checkpoint, loaded (never rebuilt) at open.
 */
import path from 'node:path';
import { sqlitePath, type Config } from '../lib/config';
import type { Db } from '../lib/db/client';
import { isQuinError } from '../lib/errors';
import { createLogger } from '../lib/log';
import type { Bm25Backend, Bm25Location } from './bm25/backend';
import { ElasticsearchIndex } from './bm25/elasticsearch';
import { FTS_FILE_NAME, Fts5Index } from './bm25/fts5';
import { DenseReader } from './dense/dense-index';
import { denseTuning } from './dense/sync';
import { configuredEncoderId, createEncoder, encoderFromId, rebuildEstimate } from './encoders';
import { readState } from './state';
import { indexesDir } from './files';
import type { Encoder, SearchIndexes } from './types';
import { openSentenceStore } from './vectors/store';

const log = createLogger('indexes');

export type { Bm25Location } from './bm25/backend';

export function bm25Location(config: Pick<Config, 'elasticsearchUrl' | 'databaseProvider'>): Bm25Location {
  if (config.elasticsearchUrl) return 'elasticsearch';
  return config.databaseProvider === 'sqlite' ? 'fts5' : 'fts5-file';
}

export function ftsFilePath(dataDir: string): string {
  return path.join(indexesDir(dataDir), FTS_FILE_NAME);
}

/**
 * BM25 weight of the title field relative to the text (FTS5 column weight, Elasticsearch boost):
 * chosen on our SciFact dev split (indexer/README.md). Changing it changes the FTS5 file's ranking.
 */
export const BM25_TITLE_WEIGHT = 1.5;
/**
 * From this many snippets `quin index` keeps an exact in-memory copy of the FTS5 postings, which
 * answers unfiltered BM25 queries with the same results several times faster; below it FTS5 is fast
 * enough and the copy not worth its memory (docs/benchmarks.md).
 */
export const BM25_IMPACT_MIN = 20_000;
/** One Elasticsearch request: a bulk batch of INDEX_BATCH_SIZE snippets with vectors fits well within it. */
export const ELASTICSEARCH_TIMEOUT_MS = 30_000;

/** The configured BM25 backend; every caller uses it through Bm25Backend only. */
export function openBm25(config: Config): Bm25Backend {
  const fts = { titleWeight: BM25_TITLE_WEIGHT, impactMin: BM25_IMPACT_MIN };
  switch (bm25Location(config)) {
    case 'elasticsearch':
      return new ElasticsearchIndex({
        url: config.elasticsearchUrl!,
        apiKey: config.elasticsearchApiKey,
        caFile: config.elasticsearchCaFile,
        index: config.elasticsearchIndex,
        titleBoost: BM25_TITLE_WEIGHT,
        timeoutMs: config.tuning.elasticsearchTimeoutMs ?? ELASTICSEARCH_TIMEOUT_MS,
        layout: { shards: config.elasticsearchShards, replicas: config.elasticsearchReplicas },
      });
    case 'fts5':
      return new Fts5Index(sqlitePath(config), 'content', fts);
    default:
      return new Fts5Index(ftsFilePath(config.dataDir), 'file', fts);
  }
}

/** Removes the configured Elasticsearch index, e.g. a throwaway one of `quin eval --backend elasticsearch`; nothing else has one. */
export async function dropElasticsearchIndex(config: Config): Promise<void> {
  const bm25 = openBm25(config);
  try {
    await bm25.dropIndex?.();
  } finally {
    await bm25.close();
  }
}

/** The dense reader, or null when FAISS cannot serve (binding missing, index of another encoder). */
async function openDense(db: Db, config: Config, encoder: Encoder): Promise<DenseReader | null> {
  try {
    return await DenseReader.open(db, config.dataDir, {
      encoderId: encoder.id,
      dim: encoder.dim,
      nprobe: denseTuning(config).faissNprobe,
      efSearch: denseTuning(config).denseEfSearch,
    });
  } catch (e) {
    if (!isQuinError(e)) throw e;
    log.warn(`dense index unavailable, searching with BM25 only: ${e.message}`);
    return null;
  }
}

/**
 * The encoder the query side uses: the one that built the dense index on disk (its id is in the
 * checkpoint), so that a search never says "not built" about an index that exists. When the
 * configured encoder differs, `note` says so, and what `quin index` would do about it.
 */
export async function servingEncoder(config: Config, db: Db): Promise<{ encoder: Encoder; note: string | null; denseUsable: boolean }> {
  const state = config.elasticsearchDense ? null : await readState(db, 'dense');
  const configuredId = await configuredEncoderId(config).catch(() => null);
  if (!state?.encoderId || state.ntotal === 0 || state.encoderId === configuredId) {
    return { encoder: await createEncoder(config), note: null, denseUsable: true };
  }
  const snippets = await db.snippet.count();
  const configured = configuredId ?? `QUIN_ENCODER=${config.encoder}`;
  const rebuild = `\`quin index\` would rebuild it with ${configured}: ${snippets.toLocaleString('en')} snippets, ${rebuildEstimate(config.encoder, snippets)}`;
  const built = await encoderFromId(state.encoderId, config);
  if (built && built.dim === state.dim) {
    return {
      encoder: built,
      note: `the dense index was built with ${state.encoderId}, not the configured ${configured}; searching with ${state.encoderId}. ${rebuild}`,
      denseUsable: true,
    };
  }
  return {
    encoder: await createEncoder(config),
    note: `the dense index was built with ${state.encoderId}, which cannot be loaded here, and the configured encoder is ${configured}: BM25 only. ${rebuild}`,
    denseUsable: false,
  };
}

async function open(config: Config, db: Db): Promise<SearchIndexes> {
  const { encoder, note, denseUsable } = await servingEncoder(config, db);
  if (note) log.warn(note);
  const cache = openSentenceStore(config.cacheDir, encoder);
  const bm25 = openBm25(config);
  // QUIN_ES_DENSE: Elasticsearch holds the vectors too and answers the dense side with kNN.
  const dense =
    config.elasticsearchDense && bm25.denseView ? await bm25.denseView() : denseUsable ? await openDense(db, config, encoder) : null;
  return {
    bm25,
    dense,
    encoder,
    note,
    sentenceVectors: { get: async (sentences) => cache.get(sentences) },
    async close() {
      await bm25.close();
      dense?.close?.();
      cache.close();
      await encoder.close?.();
    },
  };
}

const opened = new Map<string, Promise<SearchIndexes>>();

function keyOf(config: Config): string {
  return [
    config.dataDir,
    config.databaseUrlResolved,
    config.encoder,
    config.encoderModel ?? '',
    config.elasticsearchUrl ?? '',
    config.elasticsearchIndex,
    config.elasticsearchDense,
    config.cacheDir,
    JSON.stringify(config.tuning),
  ].join('|');
}

/** The process's indexes for this configuration: opened on first call, then the same object. */
export function openSearchIndexes(config: Config, db: Db): Promise<SearchIndexes> {
  const key = keyOf(config);
  let p = opened.get(key);
  if (!p) {
    p = open(config, db);
    opened.set(key, p);
    p.catch(() => opened.delete(key));
  }
  return p;
}

/** Closes every opened set (CLI exit, tests). */
export async function closeSearchIndexes(): Promise<void> {
  const all = [...opened.values()];
  opened.clear();
  for (const p of all) await (await p.catch(() => null))?.close();
}
