/**
 * `npx tsx bench/hnsw-build.ts [snippets] [efConstruction:addBatch,…] [efSearch,…] [f16,i8,i8+f16]`
 *
 * What the HNSW graph's build costs and buys (docs/benchmarks.md, "Building 1M"): the bench corpus's
 * snippet vectors (the default static encoder, `mean-title`), then for each layout (f16 codes; USearch's
 * own int8 cast; `i8+f16`: our per-vector int8 codes walked, the top 500 scored again with f16 rows
 * as the product does: 1.5 × 500 asked, the best 500 kept, indexer/dense/usearch-native.ts), efConstruction (USearch's expansion_add) and size
 * of the add calls, the build time with all cores, the graph file's size, and recall@10 against exact
 * inner products for 200 claims at each efSearch, with the p50 of one search for k = 500 (for `i8+f16`
 * with its scoring again).
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeSnippets } from '../crawler';
import { createEncoder } from '../indexer';
import { GuardedIndex } from '../indexer/dense/faiss-native';
import { F16Rows, int8Codes } from '../indexer/dense/f16-rows';
import { RESCORE_WIDEN } from '../indexer/dense/usearch-native';
import { poolSnippet } from '../indexer/vectors/pooling';
import { loadConfig } from '../lib/config';
import { BENCH_WINDOW, chooseArticles, sentencesOf } from './build';
import { benchQueries } from './search';

interface Usearch {
  add(keys: BigUint64Array, vectors: Float32Array | Int8Array, threads: number): void;
  search(q: Float32Array | Int8Array, k: number, threads: number): { keys: BigUint64Array };
  save(file: string): void;
  view(file: string): void;
}
const usearch = createRequire(import.meta.url)('usearch') as { Index: new (config: Record<string, unknown>) => Usearch };
const FILE = path.join(os.tmpdir(), `quin-hnsw-build-${process.pid}.usearch`);
const n = Number(process.argv[2] ?? '200000');
const variants = (process.argv[3] ?? '128:64,128:50000,64:50000').split(',').map((v) => v.split(':').map(Number) as [number, number]);
const efs = (process.argv[4] ?? '500,1024,1536').split(',').map(Number);
const layouts = (process.argv[5] ?? 'f16').split(',');
const encoder = await createEncoder(loadConfig());
const dim = encoder.dim;
let t = performance.now();
const { articles } = await chooseArticles(n);
const x = new Float32Array(n * dim);
let row = 0;
for (const a of articles) {
  const sentences = sentencesOf(a);
  const vs = encoder.embedSync!([...sentences, a.title.trim() || ' ']);
  const title = vs.pop()!;
  for (const s of makeSnippets(sentences, BENCH_WINDOW)) {
    if (row >= n) break;
    x.set(poolSnippet(vs.slice(s.sentenceStart, s.sentenceEnd), title, 'mean-title'), row * dim);
    row++;
  }
}
console.log(`${row} vectors in ${((performance.now() - t) / 1000).toFixed(1)} s`);
const queries = (await encoder.embed(benchQueries(200))).filter((q) => q.some((v) => v !== 0));
const exact = GuardedIndex.create(dim, 'Flat');
for (let r = 0; r < row; r += 50_000) {
  const part: Float32Array[] = [];
  for (let i = r; i < Math.min(row, r + 50_000); i++) part.push(x.subarray(i * dim, (i + 1) * dim));
  exact.add(part);
}
const truth = queries.map((q) => new Set(exact.search(q, 10).labels));
const rowsOf = (r: number, m: number) => Array.from({ length: m }, (_, i) => x.subarray((r + i) * dim, (r + i + 1) * dim));
for (const layout of layouts)
  for (const [efc, chunk] of variants) {
    const own = layout === 'i8+f16';
    const config = { metric: 'cos', dimensions: dim, connectivity: 16, quantization: own ? 'i8' : layout, expansion_add: efc };
    const ix = new usearch.Index({ ...config, expansion_search: 64 });
    const rows = own ? new F16Rows(dim) : null;
    t = performance.now();
    for (let r = 0; r < row; r += chunk) {
      const m = Math.min(row, r + chunk) - r;
      const keys = new BigUint64Array(m);
      for (let i = 0; i < m; i++) keys[i] = BigInt(r + i);
      ix.add(keys, own ? int8Codes(rowsOf(r, m), dim) : x.slice(r * dim, (r + m) * dim), 0);
      rows?.add(rowsOf(r, m));
    }
    const build = (performance.now() - t) / 1000;
    ix.save(FILE);
    rows?.write(`${FILE}.f16`);
    const mb = fs.statSync(FILE).size / 2 ** 20;
    const out: string[] = [];
    for (const ef of efs) {
      const v = new usearch.Index({ ...config, expansion_search: ef });
      v.view(FILE);
      let rec = 0;
      const ms: number[] = [];
      queries.forEach((q, i) => {
        const s = performance.now();
        const r = v.search(own ? int8Codes([q], dim) : q, own ? Math.ceil(500 * RESCORE_WIDEN) : 500, 1);
        let got = [...r.keys].map(Number);
        if (rows) {
          const scores = rows.cosines(q, got);
          got = got
            .map((l, j) => [l, scores[j]!] as const)
            .sort((a, b) => b[1] - a[1])
            .slice(0, 500)
            .map((p) => p[0]);
        }
        ms.push(performance.now() - s);
        rec += got.slice(0, 10).filter((l) => truth[i]!.has(l)).length / truth[i]!.size;
      });
      ms.sort((a, b) => a - b);
      out.push(`ef ${ef}: r@10 ${(rec / queries.length).toFixed(4)} p50 ${ms[ms.length >> 1]!.toFixed(1)}`);
    }
    rows?.close();
    console.log(
      `${layout} efc ${efc} chunk ${chunk}: build ${build.toFixed(1)} s, graph ${mb.toFixed(0)} MB | ${out.join(' | ')} | load ${os.loadavg()[0]!.toFixed(2)}`,
    );
  }
fs.rmSync(FILE, { force: true });
fs.rmSync(`${FILE}.f16`, { force: true });
process.exit(0);
