/**
 * `npm run bench:search [-- --sizes 10000,100000 --queries 200 --write-docs]`
 *
 * For each corpus size (one child process each, so that peak memory is per size): builds the corpus
 * (bench/build.ts), then measures search latency through the product's search() with its default
 * settings (top 500 per index, score fusion, time decay, evidence sentences, one result per article,
 * k = 10; no reranker, no verdict) for BM25, dense and hybrid queries, plus hybrid with the real
 * USE-lite query embedding, the encoder's own throughput on a sample of corpus sentences, indexing
 * throughput, index sizes and peak memory. Prints a Markdown table; --write-docs puts it in
 * docs/benchmarks.md between the bench:search markers.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeSearchIndexes, indexStatus, openSearchIndexes, runIndex, snippetSentences, type Encoder } from '../indexer';
import type { DenseIndex } from '../indexer/types';
import { loadConfig } from '../lib/config';
import { closeLoadedModels } from '../lib/models';
import { projectRoot, sharedDataDir } from '../lib/paths';
import { rankingOptions, search, type SearchContext } from '../ranking';
import { buildBench, type BuiltBench } from './build';
import { modelBenchMarkdown, writeModelDocs } from './models';
import { formatBenchMarkdown, type BenchResult } from './report';
import { summarize } from './stats';
import { substituteEncoder } from './substitute-encoder';

const MARK = 'BENCH_RESULT ';

function arg(name: string, fallback: string): string {
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

async function timeQueries(queries: readonly string[], ctx: SearchContext, mode: 'bm25' | 'dense' | 'hybrid') {
  const ms: number[] = [];
  const stages: Record<string, number[]> = {};
  for (const [i, q] of queries.entries()) {
    const t = performance.now();
    const res = await search({ q, mode, k: 10, rerank: false, verdict: false }, ctx);
    const took = performance.now() - t;
    if (i < 10) continue; // warm-up
    ms.push(took);
    for (const [k, v] of Object.entries(res.timingsMs)) (stages[k] ??= []).push(v);
  }
  const per = (pick: (s: ReturnType<typeof summarize>) => number | null) => Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, pick(summarize(v))]));
  return { latency: summarize(ms), stagesP50: per((s) => s.p50), stagesP95: per((s) => s.p95) };
}

/** Share of the reference index's top k that the other index also returns (dense queries, substitute vectors). */
async function denseRecall(queries: readonly string[], encoder: Encoder, approx: DenseIndex, exact: DenseIndex, ks: number[]): Promise<Record<string, number>> {
  const sums = ks.map(() => 0);
  for (const q of queries) {
    const [v] = await encoder.embed([q]);
    const [a, e] = [await approx.search(v!, Math.max(...ks)), await exact.search(v!, Math.max(...ks))];
    ks.forEach((k, i) => {
      const truth = new Set(e.slice(0, k).map((h) => h.snippetId));
      sums[i]! += truth.size ? a.slice(0, k).filter((h) => truth.has(h.snippetId)).length / truth.size : 1;
    });
  }
  return Object.fromEntries(ks.map((k, i) => [`@${k}`, Math.round((sums[i]! / queries.length) * 1000) / 1000]));
}

async function encoderSample(built: BuiltBench, real: Encoder, n: number) {
  const rows = await built.db.snippet.findMany({ select: { text: true, sentenceSpans: true, title: true }, take: 20_000 });
  const pool = [...new Set(rows.flatMap((r) => snippetSentences(r)))];
  const rank = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
  const sample = pool.sort((a, b) => (rank(a) < rank(b) ? -1 : 1)).slice(0, n).sort((a, b) => a.length - b.length);
  const t = performance.now();
  for (let i = 0; i < sample.length; i += 32) await real.embed(sample.slice(i, i + 32));
  const seconds = (performance.now() - t) / 1000;
  return { sentences: sample.length, seconds: Math.round(seconds * 10) / 10, sentencesPerSecond: Math.round((sample.length / seconds) * 10) / 10 };
}

async function child(size: number, root: string, nQueries: number, sample: number, altFactory: string | undefined): Promise<BenchResult> {
  const base = loadConfig({ env: { ...process.env, DATABASE_URL: '', ELASTICSEARCH_URL: '' } });
  const built = await buildBench(size, root, base);
  const indexes = await openSearchIndexes(built.config, built.db);
  const real = indexes.encoder;
  const sub = substituteEncoder(real.dim);
  const withUse: Encoder = { id: `${real.id}+substitute`, dim: real.dim, embed: async (t) => (await real.embed(t), sub.embed(t)) };
  const ctx = (encoder: Encoder): SearchContext => ({ indexes: { ...indexes, encoder }, db: built.db, provider: 'sqlite', options: rankingOptions(built.config) });
  const queries = benchQueries(nQueries + 10);
  const queryEmbed: number[] = [];
  for (const q of queries.slice(0, 60)) {
    const t = performance.now();
    await real.embed([q]);
    queryEmbed.push(performance.now() - t);
  }
  const bm25 = await timeQueries(queries, ctx(sub), 'bm25');
  const dense = await timeQueries(queries, ctx(sub), 'dense');
  const hybrid = await timeQueries(queries, ctx(sub), 'hybrid');
  const hybridUse = await timeQueries(queries, ctx(withUse), 'hybrid');
  const enc = await encoderSample(built, real, sample);
  const status = await indexStatus(built.db, built.config);
  const dbFile = path.join(built.dir, 'quin.db');
  let alt: BenchResult['alt'];
  if (altFactory) {
    // The same corpus with another FAISS index (e.g. HNSW where the default is exact): only the dense
    // index is rebuilt, from the vectors already in the cache.
    await closeSearchIndexes();
    const altConfig = { ...built.config, faissFactory: altFactory };
    const t = performance.now();
    await runIndex(built.db, altConfig, { progress: false, rebuild: true });
    const indexSeconds = round((performance.now() - t) / 1000);
    const altIndexes = await openSearchIndexes(altConfig, built.db);
    const altCtx = (encoder: Encoder): SearchContext => ({ indexes: { ...altIndexes, encoder }, db: built.db, provider: 'sqlite', options: rankingOptions(altConfig) });
    const altSub = substituteEncoder(real.dim);
    const [approx, exact] = /^Flat$/i.test(altFactory) ? [indexes.dense, altIndexes.dense] : [altIndexes.dense, indexes.dense];
    const altUse: Encoder = { id: `${real.id}+substitute`, dim: real.dim, embed: async (t) => (await altIndexes.encoder.embed(t), altSub.embed(t)) };
    alt = {
      factory: altFactory,
      indexSeconds,
      faissBytes: (await indexStatus(built.db, altConfig)).dense.bytes,
      recall: approx && exact ? await denseRecall(queries.slice(10, 110), altSub, approx, exact, [10, 100, 500]) : undefined,
      latency: {
        dense: (await timeQueries(queries, altCtx(altSub), 'dense')).latency,
        hybrid: (await timeQueries(queries, altCtx(altSub), 'hybrid')).latency,
        hybridUse: (await timeQueries(queries, altCtx(altUse), 'hybrid')).latency,
      },
    };
  }
  const dense_ = 'added' in built.index.dense ? built.index.dense : null;
  const result: BenchResult = {
    size,
    snippets: built.snippets,
    articles: built.articles,
    synthetic: built.synthetic,
    sentences: built.sentences,
    queries: queries.length - 10,
    import: { seconds: round(built.importSeconds), snippetsPerSecond: Math.round(built.snippets / built.importSeconds) },
    index: { seconds: round(built.index.seconds), denseSnippetsPerSecond: Math.round(built.index.snippetsPerSecond), factory: dense_?.factory ?? null, prefillSeconds: round(built.prefillSeconds) },
    sizes: { databaseBytes: fileBytes(dbFile) + fileBytes(`${dbFile}-wal`), bm25Bytes: status.bm25.bytes, faissBytes: status.dense.bytes },
    latency: { bm25: bm25.latency, dense: dense.latency, hybrid: hybrid.latency, hybridUse: hybridUse.latency, queryEmbed: summarize(queryEmbed.slice(10)) },
    stagesP50: { bm25: bm25.stagesP50, dense: dense.stagesP50, hybrid: hybrid.stagesP50, hybridUse: hybridUse.stagesP50 },
    stagesP95: { bm25: bm25.stagesP95, dense: dense.stagesP95, hybrid: hybrid.stagesP95, hybridUse: hybridUse.stagesP95 },
    encoder: { id: real.id, ...enc },
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    alt,
  };
  await closeSearchIndexes();
  await built.db.$disconnect();
  return result;
}

const round = (x: number) => Math.round(x * 10) / 10;
const fileBytes = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);

async function main() {
  const root = path.resolve(arg('root', path.join(os.tmpdir(), 'quin-bench')));
  const queries = Number(arg('queries', '200'));
  const sample = Number(arg('sample', '300'));
  if (process.argv.includes('--render')) {
    // Re-renders the tables of an earlier run (out/bench/search.json) after a change of wording only.
    const saved = JSON.parse(fs.readFileSync(path.resolve(arg('render', path.join(projectRoot(), 'out', 'bench', 'search.json'))), 'utf8')) as { machine: string; command: string; date?: string; results: BenchResult[] };
    const md = formatBenchMarkdown(saved.results, { machine: saved.machine, command: saved.command, date: saved.date ?? new Date().toISOString().slice(0, 10) });
    process.stdout.write(md + '\n');
    if (process.argv.includes('--write-docs')) writeDocs(md);
    return;
  }
  if (process.argv.includes('--child')) {
    const result = await child(Number(arg('size', '10000')), root, queries, sample, process.argv.includes('--alt-factory') ? arg('alt-factory', 'Flat') : undefined);
    process.stdout.write(`${MARK}${JSON.stringify(result)}\n`);
    return;
  }
  const sizes = arg('sizes', '10000,100000').split(',').map(Number);
  // Also measure this FAISS index on corpora of at least --alt-from snippets (default: the exact index
  // from 100k, where the default `auto` picks HNSW32), with the approximate index's recall against it.
  const altFactory = arg('alt-factory', 'Flat') === 'none' ? undefined : arg('alt-factory', 'Flat');
  const altFrom = Number(arg('alt-from', '100000'));
  const results: BenchResult[] = [];
  for (const size of sizes) {
    process.stderr.write(`bench:search: ${size} snippets …\n`);
    const alt = altFactory && size >= altFrom ? ['--alt-factory', altFactory] : [];
    const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, '--child', '--size', String(size), '--root', root, '--queries', String(queries), '--sample', String(sample), ...alt], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    });
    const line = r.stdout.split('\n').find((l) => l.startsWith(MARK));
    if (r.status !== 0 || !line) throw new Error(`bench child for ${size} failed (exit ${r.status})`);
    results.push(JSON.parse(line.slice(MARK.length)) as BenchResult);
    if (!process.argv.includes('--keep')) fs.rmSync(path.join(root, `bench-${size}`), { recursive: true, force: true });
  }
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
  const command = `npm run bench:search -- --sizes ${sizes.join(',')} --queries ${queries}${altFactory === 'Flat' && altFrom === 100_000 ? '' : ` --alt-factory ${altFactory ?? 'none'} --alt-from ${altFrom}`}`;
  const date = new Date().toISOString().slice(0, 10);
  const md = formatBenchMarkdown(results, { machine, command, date });
  const outDir = path.join(projectRoot(), 'out', 'bench');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'search.json'), JSON.stringify({ machine, command, date, results }, null, 2) + '\n');
  process.stdout.write(md + '\n');
  if (process.argv.includes('--write-docs')) writeDocs(md);
  // The model stages (reranking 50 / 100 candidates, NLI for one claim): bench/models.ts.
  const models = await modelBenchMarkdown(loadConfig(), Math.min(queries, 30));
  process.stdout.write(models + '\n');
  if (process.argv.includes('--write-docs')) writeModelDocs(models);
  await closeLoadedModels();
}

export const DOC_START = '<!-- bench:search:start (generated by `npm run bench:search -- --write-docs`) -->';
export const DOC_END = '<!-- bench:search:end -->';

function writeDocs(md: string): void {
  const file = path.join(projectRoot(), 'docs', 'benchmarks.md');
  const doc = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const a = doc.indexOf(DOC_START);
  const b = doc.indexOf(DOC_END);
  const next = a >= 0 && b > a ? doc.slice(0, a + DOC_START.length) + '\n' + md + '\n' + doc.slice(b) : `${doc.trimEnd()}\n\n${DOC_START}\n${md}\n${DOC_END}\n`;
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
