/**
 * `npx tsx bench/faiss-types.ts [--size 1000000] [--types "IVF4096,Flat;HNSW32,SQ8;usearch:HNSW16,f16"] [--nprobe 16,32,64]`
 *
 * Chooses the dense index type by measurement (FAISS factory strings and USearch's `usearch:HNSW<M>,<scalar>`): real snippet vectors of the benchmark corpus (the
 * configured encoder, the bench's windows, `mean-title` pooling) for `--size` snippets, then for each
 * FAISS type the build time (train + add), the file size, the process's RSS growth, the search latency
 * for one query with k = 500 (what the pipeline asks) and recall@10/100/500 against exact search
 * (Flat), for each nprobe / efSearch value. Prints a Markdown table (docs/benchmarks.md keeps it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeSnippets } from '../crawler';
import { createEncoder } from '../indexer';
import { GuardedIndex, minTrainingPoints } from '../indexer/dense/faiss-native';
import { isUsearchFactory } from '../indexer/dense/usearch-native';
import { createVectorIndex, readVectorIndex, type VectorIndex } from '../indexer/dense/vector-index';
import { poolSnippet } from '../indexer/vectors/pooling';
import { loadConfig } from '../lib/config';
import { BENCH_WINDOW, chooseArticles, sentencesOf } from './build';
import { benchQueries } from './search';
import { summarize } from './stats';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const rssMB = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const log = (s: string) => process.stderr.write(`faiss-types: ${s}\n`);

/** Snippet vectors of the bench corpus, rows of one Float32Array. */
async function corpusVectors(n: number, embed: (t: readonly string[]) => Float32Array[], dim: number): Promise<Float32Array> {
  const { articles } = await chooseArticles(n);
  const out = new Float32Array(n * dim);
  let row = 0;
  for (const a of articles) {
    const sentences = sentencesOf(a);
    const vs = embed([...sentences, a.title.trim() || ' ']);
    const title = vs.pop()!;
    for (const s of makeSnippets(sentences, BENCH_WINDOW)) {
      if (row >= n) break;
      out.set(poolSnippet(vs.slice(s.sentenceStart, s.sentenceEnd), title, 'mean-title'), row * dim);
      row++;
    }
  }
  return out.subarray(0, row * dim);
}

function rows(x: Float32Array, dim: number, from: number, to: number): Float32Array[] {
  const out: Float32Array[] = [];
  for (let r = from; r < to; r++) out.push(x.subarray(r * dim, (r + 1) * dim));
  return out;
}

async function main() {
  const size = Number(arg('size', '1000000'));
  const types = arg('types', 'IVF4096,Flat;IVF4096,SQ8;IVF4096,PQ64').split(';');
  const nprobes = arg('nprobe', '8,16,32,64').split(',').map(Number);
  const config = loadConfig();
  const encoder = await createEncoder(config);
  if (!encoder.embedSync) throw new Error('needs a static encoder (QUIN_ENCODER=static)');
  const dim = encoder.dim;
  let t = performance.now();
  const x = await corpusVectors(size, encoder.embedSync.bind(encoder), dim);
  const n = x.length / dim;
  log(`${n} snippet vectors (${encoder.id}) in ${((performance.now() - t) / 1000).toFixed(1)} s, rss ${rssMB()} MB`);
  const queries = (await encoder.embed(benchQueries(200))).filter((q) => q.some((v) => v !== 0));
  const K = 500;
  // Ground truth: exact inner product.
  const exact = GuardedIndex.create(dim, 'Flat');
  for (let r = 0; r < n; r += 50_000) exact.add(rows(x, dim, r, Math.min(n, r + 50_000)));
  const truth = queries.map((q) => exact.search(q, K).labels);
  const flatMs = summarize(queries.map((q) => ((t = performance.now()), exact.search(q, K), performance.now() - t)));
  log(`Flat: p50 ${flatMs.p50} ms p95 ${flatMs.p95} ms`);
  const lines = [
    '| index | build s | file MB | RSS growth MB | param | p50 ms | p95 ms | recall@10 | recall@100 | recall@500 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  lines.push(`| Flat (exact) | – | ${Math.round((n * dim * 4) / 2 ** 20)} | – | – | ${flatMs.p50} | ${flatMs.p95} | 1 | 1 | 1 |`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-faiss-types-'));
  for (const type of types) {
    const before = rssMB();
    t = performance.now();
    let ix: VectorIndex = createVectorIndex(dim, type);
    const need = minTrainingPoints(type);
    if (need > 1) {
      const sampleN = Math.min(n, Math.max(need * 39, 100_000));
      const step = Math.floor(n / sampleN);
      const sample: Float32Array[] = [];
      for (let r = 0; r < n && sample.length < sampleN; r += step) sample.push(x.subarray(r * dim, (r + 1) * dim));
      ix.train(sample);
    }
    const trainS = (performance.now() - t) / 1000;
    for (let r = 0; r < n; r += 50_000) ix.add(rows(x, dim, r, Math.min(n, r + 50_000)));
    const buildS = (performance.now() - t) / 1000;
    const file = path.join(dir, 'ix.faiss');
    const bytes = ix.writeFile(file);
    const grew = rssMB() - before;
    // A USearch index is served memory-mapped, and only a mapped one takes another efSearch.
    if (isUsearchFactory(type)) ix = readVectorIndex(file, dim, type);
    log(`${type}: train ${trainS.toFixed(0)} s, build ${buildS.toFixed(0)} s, ${Math.round(bytes / 2 ** 20)} MB`);
    const param = /HNSW/i.test(type) ? 'efSearch' : 'nprobe';
    for (const p of /IVF|HNSW/i.test(type) ? nprobes : [0]) {
      if (p) ix.setSearchParam(param, /HNSW/i.test(type) ? Math.max(p, K) : p);
      const ms: number[] = [];
      const rec = [10, 100, 500].map(() => 0);
      queries.forEach((q, i) => {
        const s = performance.now();
        const got = ix.search(q, K).labels;
        ms.push(performance.now() - s);
        [10, 100, 500].forEach((k, j) => {
          const want = new Set(truth[i]!.slice(0, k));
          rec[j]! += got.slice(0, k).filter((l) => want.has(l)).length / want.size;
        });
      });
      const lat = summarize(ms);
      const r = rec.map((v) => (v / queries.length).toFixed(3));
      lines.push(
        `| ${type} | ${buildS.toFixed(0)} (train ${trainS.toFixed(0)}) | ${Math.round(bytes / 2 ** 20)} | ${grew} | ${p ? `${param} ${/HNSW/i.test(type) ? Math.max(p, K) : p}` : '–'} | ${lat.p50} | ${lat.p95} | ${r.join(' | ')} |`,
      );
      log(lines.at(-1)!);
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const load = os
    .loadavg()
    .map((v) => v.toFixed(1))
    .join(' ');
  process.stdout.write(
    `${n} snippet vectors, ${dim}-d (${encoder.id}); ${queries.length} claims, k = ${K}; load average ${load}\n\n${lines.join('\n')}\n`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`faiss-types failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
