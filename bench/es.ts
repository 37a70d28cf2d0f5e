/**
 * `npm run bench:search -- --backend elasticsearch`: the same benchmark with both indexes in
 * Elasticsearch (BM25 and the vectors, QUIN_ES_DENSE), on the cluster at ELASTICSEARCH_URL or, when
 * unset, on a node of its own (scripts/es-node.sh; heap QUIN_ES_HEAP, default 512m) stopped at the
 * end. The children get the node's URL as `--es-url`; the node's heap and RSS are read after each
 * phase (RSS from /proc, so only for a node on this machine).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { loadConfig, type Config } from '../lib/config';
import { projectRoot } from '../lib/paths';

export type BenchBackend = 'embedded' | 'elasticsearch';

export interface EsNodeStats {
  heapUsedMB: number;
  heapMaxMB: number;
  /** The node process's resident memory now and at its peak (VmRSS, VmHWM); null for a node elsewhere. */
  rssMB: number | null;
  peakRssMB: number | null;
  storeBytes: number;
  docs: number;
  /** The vector field's index type as the node chose it (e.g. int8_hnsw), or null without vectors. */
  vectorIndex: string | null;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export const benchBackend = (): BenchBackend => (arg('backend') === 'elasticsearch' ? 'elasticsearch' : 'embedded');

/** The index of one corpus size. */
export const benchIndex = (size: number) => `quin-bench-${size}`;

/** The children's extra arguments. */
export const esChildArgs = (url: string | null) => (url ? ['--backend', 'elasticsearch', '--es-url', url] : []);

/** A phase's base configuration: unchanged for the embedded backend, else both indexes in Elasticsearch. */
export function withBackend(base: Config, size: number): Config {
  const url = arg('es-url');
  if (benchBackend() !== 'elasticsearch' || !url) return base;
  return loadConfig({
    env: {},
    configFile: null,
    overrides: { ...settingsOf(base), elasticsearchUrl: url, elasticsearchIndex: benchIndex(size), elasticsearchDense: true },
    tuning: base.tuning,
  });
}

function settingsOf(c: Config): Record<string, unknown> {
  const { databaseUrlResolved: _r, databaseProvider: _p, tuning: _t, ...settings } = c;
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
}

/** The cluster to run on: ELASTICSEARCH_URL, or a node of the benchmark's own under `root`. */
export function benchNode(root: string): { url: string; stop(): void } {
  if (process.env.ELASTICSEARCH_URL) return { url: process.env.ELASTICSEARCH_URL, stop: () => undefined };
  const dir = path.join(root, 'es-node');
  const script = path.join(projectRoot(), 'scripts', 'es-node.sh');
  const out = execFileSync('bash', [script, 'start', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const url = out.trim().split('\n').pop()!;
  let running = true;
  const stop = () => {
    if (!running) return;
    running = false;
    execFileSync('bash', [script, 'stop', dir], { stdio: 'inherit' });
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop); // a failed child ends the benchmark early: the node goes with it
  return { url, stop };
}

function procStatusMB(pid: number, field: string): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** The node's memory and the index's size (the first node of a cluster of several). */
export async function esNodeStats(url: string, index: string): Promise<EsNodeStats> {
  const client = new Client({ node: url.split(',')[0]!, requestTimeout: 60_000 });
  try {
    const info = Object.values((await client.nodes.info({ metric: 'process' })).nodes)[0];
    const jvm = Object.values((await client.nodes.stats({ metric: 'jvm' })).nodes)[0]?.jvm?.mem;
    const stats = await client.indices.stats({ index, metric: ['store', 'docs'] });
    const field = await client.indices.getFieldMapping({ index, fields: 'vector', include_defaults: true });
    const mapping = field[index]?.mappings?.vector?.mapping?.vector as { index_options?: { type?: string } } | undefined;
    const pid = info?.process?.id;
    return {
      heapUsedMB: Math.round((jvm?.heap_used_in_bytes ?? 0) / 2 ** 20),
      heapMaxMB: Math.round((jvm?.heap_max_in_bytes ?? 0) / 2 ** 20),
      rssMB: pid ? procStatusMB(pid, 'VmRSS') : null,
      peakRssMB: pid ? procStatusMB(pid, 'VmHWM') : null,
      storeBytes: stats._all?.primaries?.store?.size_in_bytes ?? 0,
      docs: stats._all?.primaries?.docs?.count ?? 0,
      vectorIndex: mapping?.index_options?.type ?? null,
    };
  } finally {
    await client.close();
  }
}

/** Removes a size's index once its phases are measured (unless --keep). */
export async function dropBenchIndex(url: string, size: number): Promise<void> {
  const client = new Client({ node: url.split(',')[0]!, requestTimeout: 60_000 });
  try {
    await client.indices.delete({ index: benchIndex(size), ignore_unavailable: true });
  } finally {
    await client.close();
  }
}
