/** The Markdown tables of `npm run bench:search -- --backend elasticsearch` (pure). */
import type { EsNodeStats } from './es';
import type { BenchResult } from './report';
import type { LatencySummary } from './stats';

/** The node measured after the build phase and after the serve phase (both on the same node). */
export type EsBenchResult = BenchResult & { es: { build: EsNodeStats; serve: EsNodeStats } };

const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
const ms = (x: number | null) => (x === null ? '–' : x.toFixed(1));
const int = (x: number) => x.toLocaleString('en-US');
const load = (l: number[]) => l.map((v) => v.toFixed(1)).join(' / ');
const minutes = (s: number) => (s >= 120 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(0)} s`);
const mem = (x: number | null) => (x === null ? '–' : `${int(x)} MB`);

export function formatEsBenchMarkdown(results: readonly EsBenchResult[], meta: { machine: string; command: string; date: string }): string {
  const lines: string[] = [
    `Command: \`${meta.command}\` · machine: ${meta.machine} · ${meta.date} · Elasticsearch 9.2.0 (scripts/es-node.sh), one node on the same machine, its heap as the tables say. The load average (1 / 5 / 15 min) at the end of each phase is given beside its numbers.`,
    '',
    'Indexing end to end into Elasticsearch (a fresh data dir: import = store articles and snippets in SQLite; index = `runIndex` with `ELASTICSEARCH_URL` and `QUIN_ES_DENSE`: FTS5 tokens of each title and text, the encoder’s vector of each snippet, `_bulk` in batches, `_refresh`). Node memory after indexing:',
    '',
    '| snippets | articles | import | index into Elasticsearch | **end to end** | index size | vectors | node heap used / max | **node RSS** (peak) | benchmark peak RSS | load |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |',
  ];
  for (const { build: b, es } of results) {
    const e = es.build;
    lines.push(
      `| ${int(b.snippets)} | ${int(b.articles)}${b.synthetic ? ` (${int(b.synthetic)} synthetic)` : ''} | ${minutes(b.import.seconds)} | ${minutes(b.index.seconds)} | **${minutes(b.import.seconds + b.index.seconds)}** | ${mb(e.storeBytes)} | ${e.vectorIndex ?? '–'} | ${mem(e.heapUsedMB)} / ${mem(e.heapMaxMB)} | **${mem(e.rssMB)}** (${mem(e.peakRssMB)}) | ${int(b.peakRssMB)} MB | ${load(b.loadAverage)} |`,
    );
  }
  lines.push(
    '',
    'Search latency in ms through the product pipeline (`search()` as the web server runs it, k = 10), **each query embedded by the encoder first**, BM25 a `combined_fields` query over the FTS5 tokens, dense a `knn` query over the `dense_vector` field, hybrid both fused; after 10 warm-up queries; SciFact and Climate-FEVER claims. Node memory after the searches:',
    '',
    '| snippets | query | n | p50 | p95 | p99 | node heap used / max | node RSS (peak) | load |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  );
  for (const { build: b, serve: s, es } of results) {
    const rows: [string, LatencySummary][] = [
      ['BM25 (Elasticsearch)', s.latency.bm25],
      [`dense (Elasticsearch kNN${es.serve.vectorIndex ? `, ${es.serve.vectorIndex}` : ''})`, s.latency.dense],
      ['**hybrid**', s.latency.hybrid],
      ['query embedding alone', s.latency.queryEmbed],
    ];
    for (const [name, l] of rows)
      lines.push(
        `| ${int(b.snippets)} | ${name} | ${l.n} | ${ms(l.p50)} | ${ms(l.p95)} | ${ms(l.p99)} | ${mem(es.serve.heapUsedMB)} / ${mem(es.serve.heapMaxMB)} | ${mem(es.serve.rssMB)} (${mem(es.serve.peakRssMB)}) | ${load(s.loadAverage)} |`,
      );
  }
  lines.push(
    '',
    'The corpus is the one of the embedded rows above (the same articles, the same synthetic ones beyond ~141k snippets) and the same queries, so the two tables compare backends on one machine.',
  );
  return lines.join('\n');
}
