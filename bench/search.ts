/**
 * `npm run bench:search [-- --sizes 100000,1000000 --queries 200 --write-docs]`
 *
 * For each corpus size, two child processes (so that each phase's peak memory is its own):
 * 1. build: the corpus through the product's path (bench/build.ts: import → FTS5 → `runIndex`: the
 *    BM25 accelerator, the configured encoder's vectors, FAISS) — end-to-end time and peak RSS;
 * 2. serve: the indexes opened as the web server opens them (`openSearchContext`), then search
 *    latency through `search()` for BM25, dense and hybrid queries — each including its query
 *    embedding by the configured encoder — and hybrid with reranking, and with reranking and the
 *    verdict; the encoder's throughput on corpus sentences; index sizes; peak RSS; then BM25's pruned
 *    top k against its exhaustive scorer on `--identity-queries` claims (default 1000), hybrid
 *    recall@100 against exhaustive scoring and the FAISS nprobe curve (bench/pruning.ts).
 * Prints a Markdown table; --write-docs puts it in docs/benchmarks.md between the bench:search markers.
 * `--backend elasticsearch`: both indexes in Elasticsearch instead (bench/es.ts), tables of their own
 * between the bench:search-es markers.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { storeArticles, type ArticleInput } from '../crawler';
import { closeSearchIndexes, indexStatus, runIndex, type Encoder } from '../indexer';
import { DenseReader } from '../indexer/dense/dense-index';
import { denseTuning } from '../indexer/dense/sync';
import { fileBytes } from '../indexer/files';
import { sentenceTexts } from '../lib/text/sentences';
import { loadConfig, type Config } from '../lib/config';
import { createDb } from '../lib/db/client';
import { closeLoadedModels } from '../lib/models';
import { heapLimitMB, webNodeFlags } from '../lib/web/node-flags';
import { projectRoot, sharedDataDir } from '../lib/paths';
import { openSearchContext, RETRIEVE_K, search, type SearchContext } from '../ranking';
import { exactDenseTop } from './exact-dense';
import { BENCH_WINDOW, benchConfig, buildBench } from './build';
import { benchBackend, benchIndex, benchNode, dropBenchIndex, esChildArgs, esNodeStats, withBackend } from './es';
import { formatEsBenchMarkdown, type EsBenchResult } from './es-report';
import { formatPruningMarkdown } from './pruning-report';
import { pruningChecks, type PruningResult } from './pruning';
import { formatBenchMarkdown, type BenchBuild, type BenchResult, type BenchServe } from './report';
import { summarize } from './stats';

const MARK = 'BENCH_RESULT ';

export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

/** Claims from SciFact and Climate-FEVER, alternating, in file order. */
export function benchQueries(n: number): string[] {
  const read = (file: string, field: string) =>
    fs.existsSync(file)
      ? fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => String((JSON.parse(l) as Record<string, unknown>)[field]))
      : [];
  const a = read(path.join(sharedDataDir(), 'scifact', 'claims_train.jsonl'), 'claim');
  const b = read(path.join(sharedDataDir(), 'climate-fever', 'claims.jsonl'), 'claim');
  const out: string[] = [];
  for (let i = 0; out.length < n && (i < a.length || i < b.length); i++) {
    if (a[i]) out.push(a[i]!);
    if (b[i] && out.length < n) out.push(b[i]!);
  }
  return out;
}

export type Mode = { mode: 'bm25' | 'dense' | 'hybrid'; rerank: boolean; verdict: boolean };

/** Each query through `search()` (the first 10 as warm-up): latency and each stage's p50 / p95. */
export async function timeQueries(queries: readonly string[], ctx: SearchContext, m: Mode) {
  const ms: number[] = [];
  const stages: Record<string, number[]> = {};
  for (const [i, q] of queries.entries()) {
    const t = performance.now();
    const res = await search({ q, mode: m.mode, k: 10, rerank: m.rerank, verdict: m.verdict }, ctx);
    const took = performance.now() - t;
    if (i < 10) continue; // warm-up
    ms.push(took);
    for (const [k, v] of Object.entries(res.timingsMs)) (stages[k] ??= []).push(v);
    (stages.other ??= []).push(unaccounted(res.timingsMs, took));
  }
  const per = (pick: (s: ReturnType<typeof summarize>) => number | null) =>
    Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, pick(summarize(v))]));
  return { latency: summarize(ms), stagesP50: per((s) => s.p50), stagesP95: per((s) => s.p95) };
}

/**
 * What no stage's timer holds: the time between stages (awaits, object building, the response).
 * BM25 runs while the query is embedded, so the longer of the two counts; `count` runs beside the rest.
 */
/** The total less the stages, retrieval counted once as its longer path: BM25 beside the embedding and then the dense search (ranking/retrieve.ts). */
function unaccounted(t: Record<string, number>, total: number): number {
  const serial = Object.entries(t).reduce((sum, [k, v]) => (['bm25', 'embed', 'dense', 'count', 'total'].includes(k) ? sum : sum + v), 0);
  return Math.max(0, total - serial - Math.max(t.bm25 ?? 0, (t.embed ?? 0) + (t.dense ?? 0)));
}

async function encoderSample(ctx: SearchContext, encoder: Encoder, n: number) {
  const rows = await ctx.db.snippet.findMany({ select: { text: true, sentenceSpans: true, title: true }, take: 20_000 });
  const pool = [...new Set(rows.flatMap((r) => sentenceTexts(r.text, r.sentenceSpans)))];
  const rank = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
  const sample = pool.sort((a, b) => (rank(a) < rank(b) ? -1 : 1)).slice(0, n);
  const t = performance.now();
  for (let i = 0; i < sample.length; i += 32) await encoder.embed(sample.slice(i, i + 32));
  const seconds = (performance.now() - t) / 1000;
  return { sentences: sample.length, seconds: round(seconds), sentencesPerSecond: Math.round(sample.length / seconds) };
}

async function buildPhase(size: number, root: string): Promise<BenchBuild> {
  const base = withBackend(loadConfig({ env: { ...process.env, DATABASE_URL: '', ELASTICSEARCH_URL: '' } }), size);
  const built = await buildBench(size, root, base);
  const status = await indexStatus(built.db, built.config);
  const dense = 'added' in built.index.dense ? built.index.dense : null;
  const dbFile = path.join(built.dir, 'quin.db');
  await built.db.$disconnect();
  return {
    size,
    snippets: built.snippets,
    articles: built.articles,
    synthetic: built.synthetic,
    import: { seconds: round(built.importSeconds), snippetsPerSecond: Math.round(built.snippets / built.importSeconds) },
    index: {
      seconds: round(built.index.seconds),
      bm25Seconds: round(built.index.bm25.seconds),
      denseSeconds: round(dense?.seconds ?? 0),
      factory: dense?.factory ?? null,
      encoder: built.index.encoder,
    },
    sizes: {
      databaseBytes: fileBytes(dbFile) + fileBytes(`${dbFile}-wal`),
      bm25Bytes: status.bm25.bytes,
      faissBytes: status.dense.bytes,
      acceleratorBytes: fileBytes(`${dbFile}.bm25-impact`),
    },
    peakRssMB: peakRssMB(),
    loadAverage: loadAverage(),
  };
}

async function servePhase(size: number, root: string, nQueries: number, sample: number): Promise<BenchServe> {
  const base = withBackend(loadConfig({ env: { ...process.env, DATABASE_URL: '', ELASTICSEARCH_URL: '' } }), size);
  const config = benchConfig(path.join(root, `bench-${size}`), base);
  const db = createDb(config);
  const started = performance.now();
  const ctx = await openSearchContext(config, db);
  const openSeconds = round((performance.now() - started) / 1000);
  const rssAfterOpenMB = Math.round(process.memoryUsage().rss / 2 ** 20);
  const encoder = ctx.indexes.encoder;
  const queries = benchQueries(nQueries + 10);
  const few = queries.slice(0, Math.min(queries.length, 70)); // reranking and verdicts cost ~0.1–1 s a query
  const queryEmbed: number[] = [];
  for (const q of queries.slice(0, 60)) {
    const t = performance.now();
    await encoder.embed([q]);
    queryEmbed.push(performance.now() - t);
  }
  const plain = (mode: Mode['mode']) => timeQueries(queries, ctx, { mode, rerank: false, verdict: false });
  const bm25 = await plain('bm25');
  const dense = await plain('dense');
  const hybrid = await plain('hybrid');
  const rerank = ctx.reranker ? await timeQueries(few, ctx, { mode: 'hybrid', rerank: true, verdict: false }) : null;
  const verdict = ctx.verdict ? await timeQueries(few, ctx, { mode: 'hybrid', rerank: true, verdict: true }) : null;
  const enc = await encoderSample(ctx, encoder, sample);
  const servingPeak = peakRssMB();
  // BM25 pruning against exhaustive scoring, the nprobe curve (bench/pruning.ts): after the peak is read.
  const hnsw = /HNSW/i.test(ctx.indexes.dense instanceof DenseReader ? (ctx.indexes.dense.loaded?.index.factory ?? '') : '');
  const pruning = await pruningChecks(
    ctx,
    benchQueries(Number(arg('identity-queries', '1000'))),
    rssAfterOpenMB,
    hnsw ? denseTuning(config).denseEfSearch : denseTuning(config).faissNprobe,
    (qs) => exactDenseTop(db, config, encoder, (ctx.indexes.dense as DenseReader).loaded!, qs, RETRIEVE_K),
  );
  const live = await liveUpdate(ctx, config, queries.slice(0, 60));
  const out: BenchServe & { pruning: PruningResult | null } = {
    queries: queries.length - 10,
    openSeconds,
    latency: {
      bm25: bm25.latency,
      dense: dense.latency,
      hybrid: hybrid.latency,
      rerank: rerank?.latency ?? null,
      verdict: verdict?.latency ?? null,
      queryEmbed: summarize(queryEmbed.slice(10)),
    },
    stagesP50: {
      bm25: bm25.stagesP50,
      dense: dense.stagesP50,
      hybrid: hybrid.stagesP50,
      ...(rerank ? { rerank: rerank.stagesP50 } : {}),
      ...(verdict ? { verdict: verdict.stagesP50 } : {}),
    },
    stagesP95: {
      bm25: bm25.stagesP95,
      dense: dense.stagesP95,
      hybrid: hybrid.stagesP95,
      ...(rerank ? { rerank: rerank.stagesP95 } : {}),
      ...(verdict ? { verdict: verdict.stagesP95 } : {}),
    },
    models: { reranker: ctx.reranker?.id ?? null, rerankDepth: ctx.reranker?.depth ?? null, nli: ctx.verdict?.id ?? null },
    encoder: { id: encoder.id, ...enc },
    live,
    pruning,
    peakRssMB: servingPeak,
    heapLimitMB: heapLimitMB(),
    loadAverage: loadAverage(),
  };
  await closeSearchIndexes();
  await closeLoadedModels();
  await db.$disconnect();
  return out;
}

/** Five short stories nobody else has, for the live-update check. */
export function liveArticles(): ArticleInput[] {
  const stories = [
    ['Harbour council approves tidal barrier', 'The Zarnwick harbour council approved a tidal barrier against winter storm surges.'],
    ['Beekeepers report record honey harvest', 'Beekeepers in the Ollendry valley reported a record honey harvest after a mild spring.'],
    ['City trials driverless night buses', 'Quellport began trials of driverless night buses on two suburban routes.'],
    ['Library returns overdue book after 90 years', 'A library in Brantmoor received a book that had been overdue for ninety years.'],
    ['Glacier retreat exposes ancient forest', 'Retreating ice on the Vellmark glacier exposed tree stumps thousands of years old.'],
  ];
  const now = new Date();
  return stories.map(([title, lead], i) => {
    const url = `https://live-update.invalid/${now.getTime()}/${i}`;
    return {
      canonicalUrl: url,
      originalUrl: url,
      title: title!,
      source: 'Live update',
      publishedAt: now,
      publishedAtSource: 'import',
      fetchedAt: now,
      textSource: 'import',
      extractionStatus: 'ok',
      sentences: [lead!, 'Officials said the decision followed months of public meetings.', 'Residents welcomed the news on Tuesday.'],
    };
  });
}

/**
 * Freshness of a running server: while this process serves (as the web server does), a 5-story import and `runIndex`
 * (as `quin index`), then how long until BM25 and the dense index both find every new story in
 * their top 10 (and, when one never does within 30 s, how many it found: an IVF index is
 * approximate, and a story on a topic the corpus lacks can sit in lists a query does not search).
 */
async function liveUpdate(ctx: SearchContext, config: Config, claims: readonly string[]): Promise<BenchServe['live']> {
  const articles = liveArticles();
  let t = performance.now();
  await storeArticles(ctx.db, articles, BENCH_WINDOW);
  const importSeconds = (performance.now() - t) / 1000;
  // Before the index run the BM25 accelerator's copy is behind the database by these stories, as it is
  // between a crawl's writes and the next `quin index` (bm25/impact-live.ts).
  const foundBefore = await storiesFound(articles, 'bm25', ctx);
  const behind = await timeQueries(claims, ctx, { mode: 'bm25', rerank: false, verdict: false });
  t = performance.now();
  const stats = await runIndex(ctx.db, config, { progress: false });
  const indexSeconds = (performance.now() - t) / 1000;
  const indexed = performance.now();
  const seen: Record<'bm25' | 'dense', number | null> = { bm25: null, dense: null };
  const found: Record<'bm25' | 'dense', number> = { bm25: 0, dense: 0 };
  while ((seen.bm25 === null || seen.dense === null) && performance.now() - indexed < LIVE_WAIT_MS) {
    for (const mode of ['bm25', 'dense'] as const) {
      if (seen[mode] !== null) continue;
      const n = await storiesFound(articles, mode, ctx);
      found[mode] = Math.max(found[mode], n);
      if (n === articles.length) seen[mode] = (performance.now() - indexed) / 1000;
    }
    if (seen.bm25 === null || seen.dense === null) await new Promise((r) => setTimeout(r, 250));
  }
  return {
    articles: articles.length,
    importSeconds: round(importSeconds),
    indexSeconds: round(indexSeconds),
    bm25Seconds: round(stats.bm25.seconds),
    denseSeconds: 'added' in stats.dense ? round(stats.dense.seconds) : null,
    visibleAfterSeconds: { bm25: seen.bm25 === null ? null : round(seen.bm25), dense: seen.dense === null ? null : round(seen.dense) },
    found,
    behind: { bm25: behind.latency, found: foundBefore },
  };
}

/** How many of the stories a mode returns in its top 10, each looked for by its title and first sentence, as a reader would describe it. */
async function storiesFound(articles: readonly ArticleInput[], mode: 'bm25' | 'dense', ctx: SearchContext): Promise<number> {
  let n = 0;
  for (const a of articles) {
    const q = `${a.title}. ${a.sentences![0]}`;
    const res = await search({ q, mode, k: 10, rerank: false, verdict: false, halfLifeDays: null }, ctx);
    if (res.results.some((r) => r.url === a.canonicalUrl)) n += 1;
  }
  return n;
}

/** How long the live update waits for the new stories to be found. */
const LIVE_WAIT_MS = 30_000;

const round = (x: number) => Math.round(x * 10) / 10;
const peakRssMB = () => Math.round(process.resourceUsage().maxRSS / 1024);
const loadAverage = () => os.loadavg().map((v) => Math.round(v * 10) / 10);

/** A phase in a child process of its own; `nodeFlags`: the serving phase runs with the web server's (lib/web/node-flags.ts). */
function runChild(args: string[], nodeFlags: string[] = []): unknown {
  const r = spawnSync(process.execPath, [...process.execArgv, ...nodeFlags, process.argv[1]!, '--child', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith(MARK));
  if (r.status !== 0 || !line) throw new Error(`bench child ${args.join(' ')} failed (exit ${r.status})`);
  return JSON.parse(line.slice(MARK.length));
}

async function main() {
  const root = path.resolve(arg('root', path.join(os.tmpdir(), 'quin-bench')));
  const queries = Number(arg('queries', '200'));
  const sample = Number(arg('sample', '20000'));
  if (process.argv.includes('--render')) {
    // Re-renders the tables of an earlier run (out/bench/search.json) after a change of wording only.
    const saved = JSON.parse(
      fs.readFileSync(path.resolve(arg('render', path.join(projectRoot(), 'out', 'bench', 'search.json'))), 'utf8'),
    ) as { machine: string; command: string; date?: string; results: BenchResult[] };
    const md =
      formatBenchMarkdown(saved.results, {
        machine: saved.machine,
        command: saved.command,
        date: saved.date ?? new Date().toISOString().slice(0, 10),
      }) + formatPruningMarkdown(saved.results);
    process.stdout.write(md + '\n');
    if (process.argv.includes('--write-docs')) writeDocs(md);
    return;
  }
  if (process.argv.includes('--child')) {
    const size = Number(arg('size', '10000'));
    const result = arg('phase', 'build') === 'build' ? await buildPhase(size, root) : await servePhase(size, root, queries, sample);
    process.stdout.write(`${MARK}${JSON.stringify(result)}\n`);
    return;
  }
  const sizes = arg('sizes', '10000,100000').split(',').map(Number);
  const results: (BenchResult | EsBenchResult)[] = [];
  // --backend elasticsearch: both indexes in Elasticsearch (bench/es.ts), the node measured after each phase.
  const node = benchBackend() === 'elasticsearch' ? benchNode(root) : null;
  const esArgs = esChildArgs(node?.url ?? null);
  for (const size of sizes) {
    process.stderr.write(`bench:search: building ${size} snippets …\n`);
    const build = runChild(['--phase', 'build', '--size', String(size), '--root', root, ...esArgs]) as BenchBuild;
    const esBuild = node ? await esNodeStats(node.url, benchIndex(size)) : null;
    process.stderr.write(`bench:search: built ${JSON.stringify(build)}\nbench:search: searching ${size} snippets …\n`);
    const serve = runChild(
      [
        '--phase',
        'serve',
        '--size',
        String(size),
        '--root',
        root,
        '--queries',
        String(queries),
        '--sample',
        String(sample),
        '--identity-queries',
        arg('identity-queries', '1000'),
        ...esArgs,
      ],
      webNodeFlags(),
    ) as BenchServe;
    if (node && esBuild) results.push({ build, serve, es: { build: esBuild, serve: await esNodeStats(node.url, benchIndex(size)) } });
    else results.push({ build, serve });
    if (!process.argv.includes('--keep')) fs.rmSync(path.join(root, `bench-${size}`), { recursive: true, force: true });
    if (node && !process.argv.includes('--keep')) await dropBenchIndex(node.url, size);
  }
  node?.stop();
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
  const command = `npm run bench:search -- ${node ? '--backend elasticsearch ' : ''}--sizes ${sizes.join(',')} --queries ${queries}`;
  const date = new Date().toISOString().slice(0, 10);
  const md = node
    ? formatEsBenchMarkdown(results as EsBenchResult[], { machine, command, date })
    : formatBenchMarkdown(results, { machine, command, date }) + formatPruningMarkdown(results as BenchResult[]);
  const outDir = path.join(projectRoot(), 'out', 'bench');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(
    path.join(outDir, node ? 'search-es.json' : 'search.json'),
    JSON.stringify({ machine, command, date, results }, null, 2) + '\n',
  );
  process.stdout.write(md + '\n');
  if (process.argv.includes('--write-docs')) writeDocs(md, node ? ES_DOC_MARKERS : [DOC_START, DOC_END]);
}

export const DOC_START = '<!-- bench:search:start (generated by `npm run bench:search -- --write-docs`) -->';
export const DOC_END = '<!-- bench:search:end -->';
/** The Elasticsearch rows have markers of their own: either run leaves the other's tables as they are. */
export const ES_DOC_MARKERS: [string, string] = [
  '<!-- bench:search-es:start (generated by `npm run bench:search -- --backend elasticsearch --write-docs`) -->',
  '<!-- bench:search-es:end -->',
];

function writeDocs(md: string, [start, end]: readonly [string, string] = [DOC_START, DOC_END]): void {
  const file = path.join(projectRoot(), 'docs', 'benchmarks.md');
  const doc = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  const next =
    a >= 0 && b > a ? doc.slice(0, a + start.length) + '\n' + md + '\n' + doc.slice(b) : `${doc.trimEnd()}\n\n${start}\n${md}\n${end}\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, next);
  process.stderr.write(`updated ${file}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().catch((e: unknown) => {
    process.stderr.write(`bench:search failed: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}
