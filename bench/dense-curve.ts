/**
 * The dense index's curve alone, on a bench build already made (`npm run bench:search -- --keep`, or its
 * build phase): for each value of its search knob (efSearch of an HNSW graph, nprobe of an IVF index),
 * the search's latency and its recall@10 / @100 against exact search, and the hybrid recall@100 it
 * gives — the fused top 100 against exhaustive BM25 + exact dense search (bench/pruning.ts, which
 * `bench:search` runs after its latency tables). Without the rest of the serving phase, so that the
 * serving value (DENSE_EF_SEARCH / FAISS_NPROBE, indexer/dense/dense-index.ts) can be checked on a
 * new build in minutes.
 *
 *   npx tsx bench/dense-curve.ts [--size 1000000] [--root /tmp/quin-bench] [--claims 200]
 */
import path from 'node:path';
import { DenseReader } from '../indexer/dense/dense-index';
import { denseTuning } from '../indexer/dense/sync';
import { loadConfig } from '../lib/config';
import { createDb } from '../lib/db/client';
import { openSearchContext, RETRIEVE_K } from '../ranking';
import { benchConfig } from './build';
import { exactDenseTop } from './exact-dense';
import { pruningChecks } from './pruning';
import { arg, benchQueries } from './search';
import { loadText } from './serving';

const size = Number(arg('size', '1000000'));
const base = loadConfig({ env: { ...process.env, DATABASE_URL: '', ELASTICSEARCH_URL: '' } });
const config = benchConfig(path.join(arg('root', '/tmp/quin-bench'), `bench-${size}`), base);
const db = createDb(config);
const ctx = await openSearchContext(config, db, { rerank: false, verdict: false });
const dense = ctx.indexes.dense instanceof DenseReader ? ctx.indexes.dense.loaded : null;
if (!dense) throw new Error(`no dense index served from ${config.dataDir}`);
const hnsw = /HNSW/i.test(dense.index.factory);
const serving = hnsw ? denseTuning(config).denseEfSearch : denseTuning(config).faissNprobe;
const result = await pruningChecks(ctx, benchQueries(Number(arg('claims', '200'))), 0, serving, (qs) =>
  exactDenseTop(db, config, ctx.indexes.encoder, dense, qs, RETRIEVE_K),
);
const curve = result?.faiss;
if (!curve) throw new Error('no curve: the BM25 side has no accelerator, or the dense index is exact');
const f = (x: number | null) => (x === null ? '–' : x.toFixed(1));
console.log(`${size} snippets · ${curve.factory} · ${curve.queries} claims · serving ${curve.param} ${serving} · load ${loadText()}`);
console.log(`| ${curve.param} | p50 ms | p95 ms | recall@10 | recall@100 | hybrid recall@100 |`);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of curve.rows) {
  const name = r.nprobe === curve.nlist ? 'exact' : r.nprobe === serving ? `**${r.nprobe}**` : String(r.nprobe);
  console.log(
    `| ${name} | ${f(r.latency.p50)} | ${f(r.latency.p95)} | ${r.recall10.toFixed(4)} | ${r.recall100.toFixed(4)} | ${r.hybrid100.toFixed(4)} |`,
  );
}
await ctx.indexes.close();
await db.$disconnect();
