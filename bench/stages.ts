/**
 * The stage table of a bench corpus already built (`npm run bench:search -- --keep`, or its build
 * phase alone), without building it again: each query through `search()` as the serving phase of
 * bench/search.ts runs it, per mode, with each stage's p50 / p95 and the process's peak RSS. For
 * comparing two trees on one build (run them alternately: one run is noisy on a shared machine).
 *
 *   npx tsx bench/stages.ts [--size 1000000] [--root /tmp/quin-bench] [--modes hybrid,bm25] [--queries 200]
 */
import os from 'node:os';
import path from 'node:path';
import { closeSearchIndexes } from '../indexer';
import { loadConfig } from '../lib/config';
import { sharedDataDir } from '../lib/paths';
import { createDb } from '../lib/db/client';
import { closeLoadedModels } from '../lib/models';
import { openSearchContext } from '../ranking';
import { benchConfig } from './build';
import { arg, benchQueries, timeQueries, type Mode } from './search';

const size = Number(arg('size', '1000000'));
const root = arg('root', '/tmp/quin-bench');
const modes = arg('modes', 'hybrid,bm25').split(',') as Mode['mode'][];
const n = Number(arg('queries', '200'));

const base = loadConfig({ env: { ...process.env, DATABASE_URL: '', ELASTICSEARCH_URL: '' } });
const config = benchConfig(path.join(root, `bench-${size}`), base);
const db = createDb(config);
const ctx = await openSearchContext(config, db, { rerank: false, verdict: false });
const queries = benchQueries(n + 10);
if (queries.length <= 10) throw new Error(`no claims to search with: SciFact and Climate-FEVER not found under ${sharedDataDir()}`);
const f = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(1));
for (const mode of modes) {
  const r = await timeQueries(queries, ctx, { mode, rerank: false, verdict: false });
  const stages = Object.keys(r.stagesP50).filter((k) => k !== 'total');
  console.log(`${size} ${mode}: p50 ${f(r.latency.p50)} / p95 ${f(r.latency.p95)} ms (${r.latency.n} queries)`);
  console.log(`  ${stages.map((k) => `${k} ${f(r.stagesP50[k])} / ${f(r.stagesP95[k])}`).join(' · ')}`);
}
console.log(
  `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB · load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}`,
);
await closeSearchIndexes();
await closeLoadedModels();
await db.$disconnect();
