/**
 * The stage table of a bench corpus already built (`npm run bench:search -- --keep`, or its build
 * phase alone), without building it again: each query through `search()` as the serving phase of
 * bench/search.ts runs it, per mode, with each stage's p50 / p95 and the process's peak RSS. For
 * comparing two trees on one build (run them alternately: one run is noisy on a shared machine).
 *
 * Modes: bm25, dense, hybrid, and `rerank` / `verdict` (hybrid + rerank, hybrid + rerank + verdict, on the
 * first 70 queries as bench:search runs them), with the reranker and NLI model configured
 * (QUIN_RERANKER_MODEL / QUIN_NLI_MODEL), for comparing two models on one build. Runs with the web
 * server's Node flags (lib/web/node-flags.ts), as bench:search's serving phase does; the heap limit
 * is printed with the peak RSS.
 *
 *   npx tsx bench/stages.ts [--size 1000000] [--root /tmp/quin-bench] [--modes hybrid,bm25,rerank,verdict] [--queries 200]
 */
import path from 'node:path';
import { loadConfig } from '../lib/config';
import { sharedDataDir } from '../lib/paths';
import { createDb } from '../lib/db/client';
import { heapLimitMB } from '../lib/web/node-flags';
import { openSearchContext } from '../ranking';
import { benchConfig } from './build';
import { arg, benchQueries, timeQueries, type Mode } from './search';
import { closeServing, loadText, serveAsWebServer } from './serving';

serveAsWebServer();

const size = Number(arg('size', '1000000'));
const root = arg('root', '/tmp/quin-bench');
const modes = arg('modes', 'hybrid,bm25').split(',') as (Mode['mode'] | 'rerank' | 'verdict')[];
const full = modes.some((m) => m === 'rerank' || m === 'verdict');
const n = Number(arg('queries', '200'));

const base = loadConfig({ env: { ...process.env, DATABASE_URL: '', ELASTICSEARCH_URL: '' } });
const config = benchConfig(path.join(root, `bench-${size}`), base);
const db = createDb(config);
const ctx = await openSearchContext(config, db, full ? {} : { rerank: false, verdict: false });
const queries = benchQueries(n + 10);
if (queries.length <= 10) throw new Error(`no claims to search with: SciFact and Climate-FEVER not found under ${sharedDataDir()}`);
const f = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(1));
// Reranking and verdicts cost ~0.1–1 s a query: bench:search times them on its first 70 queries too.
const few = queries.slice(0, Math.min(queries.length, 70));
if (full) console.log(`reranker ${ctx.reranker?.id ?? 'none'} · verdict ${ctx.verdict?.id ?? 'none'}`);
for (const mode of modes) {
  const withModels = mode === 'rerank' || mode === 'verdict';
  if ((mode === 'rerank' && !ctx.reranker) || (mode === 'verdict' && !ctx.verdict)) throw new Error(`${mode}: no model is configured`);
  const r = withModels
    ? await timeQueries(few, ctx, { mode: 'hybrid', rerank: true, verdict: mode === 'verdict' })
    : await timeQueries(queries, ctx, { mode, rerank: false, verdict: false });
  const stages = Object.keys(r.stagesP50).filter((k) => k !== 'total');
  console.log(`${size} ${mode}: p50 ${f(r.latency.p50)} / p95 ${f(r.latency.p95)} ms (${r.latency.n} queries)`);
  console.log(`  ${stages.map((k) => `${k} ${f(r.stagesP50[k])} / ${f(r.stagesP95[k])}`).join(' · ')}`);
}
console.log(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB · heap limit ${heapLimitMB()} MB · load ${loadText()}`);
await closeServing(db);
