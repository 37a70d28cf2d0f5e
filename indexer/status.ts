/**
 * What the admin dashboard and `quin index --status` show: snippets indexed vs pending per index,
 * sizes on disk, and which encoder and backends serve. Cheap: counts and file sizes only.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../lib/config';
import type { Db } from '../lib/db/client';
import { faissAvailable } from './dense/faiss-native';
import { F16_SUFFIX } from './dense/f16-rows';
import { encoderFolder } from './vectors/cache';
import { fileBytes, indexesDir } from './files';
import type { Bm25Status } from './bm25/backend';
import { bm25Location, openBm25 } from './open';
import { readState } from './state';
import { createEncoder, staticModelDir } from './encoders';

export interface IndexStatus {
  snippets: number;
  bm25: {
    backend: string;
    indexed: number | null;
    pending: number | null;
    bytes: number | null;
    error?: string;
    cluster?: Bm25Status['cluster'];
  };
  dense: {
    available: boolean;
    encoder: string | null;
    configuredEncoder: string;
    factory: string | null;
    pooling: string | null;
    vectors: number;
    indexed: number;
    pending: number;
    tombstones: number;
    bytes: number;
    version: number;
    updatedAt: string | null;
  };
  cache: { dir: string; bytes: number };
}

function walkBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? walkBytes(p) : fs.statSync(p).size;
  }
  return n;
}

/** Folder sizes, walked at most once a minute: the status is read by every /api/health call. */
const walked = new Map<string, { at: number; bytes: number }>();

function dirBytes(dir: string): number {
  const known = walked.get(dir);
  if (known && Date.now() - known.at < 60_000) return known.bytes;
  const bytes = walkBytes(dir);
  walked.set(dir, { at: Date.now(), bytes });
  return bytes;
}

/** One line for people: "cluster quin green, 2 nodes (2 data); index yellow: 2 shards, 1 copy unassigned". */
export function describeEsCluster(c: NonNullable<Bm25Status['cluster']>): string {
  if ('error' in c) return c.error;
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
  const index = c.index
    ? `index ${c.index.status}: ${n(c.index.shards, 'shard')}, ${c.index.unassigned === 1 ? '1 copy' : `${c.index.unassigned} copies`} unassigned`
    : 'no index yet';
  return `cluster ${c.name} ${c.status}, ${n(c.nodes, 'node')} (${c.dataNodes} data); ${index}`;
}

async function bm25Status(db: Db, config: Config, snippets: number): Promise<IndexStatus['bm25']> {
  const bm25 = openBm25(config);
  try {
    return { backend: bm25.location, ...(await bm25.status(db, snippets)) };
  } finally {
    await bm25.close();
  }
}

/** The static encoder's full id (its table's hash; loading it once per process is cheap), or its folder when it cannot load. */
async function staticEncoderId(config: Config): Promise<string> {
  try {
    return (await createEncoder(config)).id;
  } catch {
    return `static:${path.basename(staticModelDir(config))}`;
  }
}

export async function indexStatus(db: Db, config: Config): Promise<IndexStatus> {
  // The independent reads at once: /api/health waits for this on a busy event loop, where each
  // await in turn is another wait in the queue.
  const [snippets, state, indexed, configuredEncoder] = await Promise.all([
    db.snippet.count(),
    readState(db, 'dense'),
    db.denseEntry.count(),
    config.encoder === 'onnx' ? `onnx:${config.encoderModel ?? '?'}` : staticEncoderId(config),
  ]);
  let bm25: IndexStatus['bm25'];
  try {
    bm25 = await bm25Status(db, config, snippets);
  } catch (e) {
    bm25 = { backend: bm25Location(config), indexed: null, pending: null, bytes: null, error: (e as Error).message };
  }
  const file = state?.file ? path.join(indexesDir(config.dataDir), state.file) : null;
  const encoderDir = state?.encoderId ? path.join(config.cacheDir, 'embeddings', encoderFolder(state.encoderId)) : null;
  return {
    snippets,
    bm25,
    dense: {
      available: faissAvailable(),
      encoder: state?.encoderId ?? null,
      configuredEncoder,
      factory: state?.factory ?? null,
      pooling: state?.pooling ?? null,
      vectors: state?.ntotal ?? 0,
      indexed,
      // Entries are removed with their snippets (foreign key), so everything else is pending.
      pending: Math.max(0, snippets - indexed),
      tombstones: Math.max(0, (state?.ntotal ?? 0) - indexed),
      // With the f16 rows an `i8+f16` graph's candidates are scored with (its companion file).
      bytes: file ? fileBytes(file) + fileBytes(file + F16_SUFFIX) : 0,
      version: state?.version ?? 0,
      updatedAt: state?.updatedAt.toISOString() ?? null,
    },
    cache: { dir: encoderDir ?? path.join(config.cacheDir, 'embeddings'), bytes: encoderDir ? dirBytes(encoderDir) : 0 },
  };
}
