/** The Markdown tables of bench/pruning.ts's checks, appended to `bench:search`'s (pure). */
import type { PruningResult } from './pruning';
import type { BenchResult } from './report';

const ms = (x: number | null) => (x === null ? '–' : x.toFixed(1));
const int = (x: number) => x.toLocaleString('en-US');
const share = (x: number) => x.toFixed(4);

type WithPruning = BenchResult & { serve: BenchResult['serve'] & { pruning?: PruningResult | null } };

export function formatPruningMarkdown(results: readonly BenchResult[]): string {
  const runs = (results as readonly WithPruning[]).flatMap((r) =>
    r.serve.pruning ? [{ size: r.build.snippets, p: r.serve.pruning, peak: r.serve.peakRssMB }] : [],
  );
  if (!runs.length) return '';
  const lines: string[] = [
    '',
    '',
    `BM25 with dynamic pruning (the accelerator's MaxScore, bm25/impact-maxscore.ts) against its exhaustive scorer, top ${runs[0]!.p.k} of each claim (SciFact and Climate-FEVER, through the product's query analysis; the accelerator alone, without the rest of the pipeline); hybrid: the fused top 100 as served (pruned BM25, FAISS at the serving nprobe) against the fused top 100 of exhaustive BM25 and exact dense search (every IVF list); memory: RSS right after the indexes are opened, the serving peak, and the accelerator's postings in blocks beside the flat arrays they replaced (8 bytes a posting and a row):`,
    '',
    '| snippets | claims | top k identical to exhaustive | BM25 recall@100 | pruned p50 / p95 ms | exhaustive p50 / p95 ms | hybrid recall@100 (claims) | RSS after open | serving peak RSS | accelerator | as flat arrays |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const { size, p, peak } of runs) {
    const hybrid = p.hybrid ? `${share(p.hybrid.recall100)} (${p.hybrid.queries})` : '–';
    const mem = p.memory;
    lines.push(
      `| ${int(size)} | ${int(p.queries)} | **${int(p.identical)}** | ${share(p.bm25Recall100)} | **${ms(p.pruned.p50)} / ${ms(p.pruned.p95)}** | ${ms(p.exhaustive.p50)} / ${ms(p.exhaustive.p95)} | ${hybrid} | ${mem ? `${int(mem.rssAfterOpenMB)} MB` : '–'} | ${int(peak)} MB | ${mem ? `${int(mem.acceleratorMB)} MB` : '–'} | ${mem ? `${int(mem.flatMB)} MB` : '–'} |`,
    );
  }
  const curves = runs.filter((r) => r.p.faiss);
  if (curves.length) {
    lines.push(
      '',
      `Dense: the index's search knob (nprobe of an IVF index, efSearch of an HNSW graph) against exact search (every IVF list; for HNSW, float inner products over every snippet's vector computed again, bench/exact-dense.ts — its latency is that recomputation's per claim), top ${runs[0]!.p.k} of each of the first claims' embeddings (the search alone), and the fused top 100 it gives against exhaustive BM25 + exact dense search; the serving value (\`FAISS_NPROBE\` / \`DENSE_EF_SEARCH\`, indexer/dense/dense-index.ts) in bold — pick it by this curve:`,
      '',
      '| snippets | index | claims | nprobe / efSearch | p50 ms | p95 ms | recall@10 | recall@100 | hybrid recall@100 |',
      '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const { size, p } of curves) {
      const f = p.faiss!;
      for (const row of f.rows) {
        const exact = row.nprobe === f.nlist;
        const bold = (s: string) => (row.nprobe === f.serving && !exact ? `**${s}**` : s);
        const label = exact ? (f.nlist ? `${f.nlist} (exact)` : 'exact (float)') : `${f.param === 'efSearch' ? 'ef ' : ''}${row.nprobe}`;
        lines.push(
          `| ${int(size)} | ${f.factory} | ${f.queries} | ${bold(label)} | ${bold(ms(row.latency.p50))} | ${bold(ms(row.latency.p95))} | ${bold(share(row.recall10))} | ${bold(share(row.recall100))} | ${bold(share(row.hybrid100))} |`,
        );
      }
    }
  }
  return lines.join('\n');
}
