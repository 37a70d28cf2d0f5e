/** The Markdown tables of `npm run bench:search` (pure). */
import type { LatencySummary } from './stats';

export interface BenchResult {
  size: number;
  snippets: number;
  articles: number;
  synthetic: number;
  sentences: number;
  queries: number;
  import: { seconds: number; snippetsPerSecond: number };
  index: { seconds: number; denseSnippetsPerSecond: number; factory: string | null; prefillSeconds: number };
  sizes: { databaseBytes: number; bm25Bytes: number | null; faissBytes: number };
  latency: { bm25: LatencySummary; dense: LatencySummary; hybrid: LatencySummary; hybridUse: LatencySummary; queryEmbed: LatencySummary };
  stagesP50: Record<string, Record<string, number | null>>;
  encoder: { id: string; sentences: number; seconds: number; sentencesPerSecond: number };
  peakRssMB: number;
  /** The same corpus with another FAISS index (--alt-factory). */
  alt?: { factory: string; indexSeconds: number; faissBytes: number; latency: { dense: LatencySummary; hybrid: LatencySummary; hybridUse: LatencySummary } };
}

const mb = (b: number | null) => (b === null ? '–' : `${(b / 2 ** 20).toFixed(0)} MB`);
const ms = (x: number | null) => (x === null ? '–' : x.toFixed(1));
const int = (x: number) => x.toLocaleString('en-US');

export function formatBenchMarkdown(results: readonly BenchResult[], meta: { machine: string; command: string; date: string }): string {
  const lines: string[] = [];
  lines.push(`Command: \`${meta.command}\` · machine: ${meta.machine} · ${meta.date}.`, '');
  lines.push('Search latency in ms over the product pipeline (`search()`: top 500 per index, score fusion, time decay, evidence sentences, one result per article, k = 10; no reranker, no verdict), after 10 warm-up queries; queries are SciFact and Climate-FEVER claims.', '');
  lines.push('| snippets | query | n | p50 | p95 | p99 |', '| ---: | --- | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    const rows: [string, LatencySummary][] = [
      ['BM25 (FTS5)', r.latency.bm25],
      ['dense (FAISS)', r.latency.dense],
      ['hybrid', r.latency.hybrid],
      ['**hybrid + USE-lite query embedding**', r.latency.hybridUse],
      ['USE-lite query embedding alone', r.latency.queryEmbed],
    ];
    if (r.alt) {
      const f = r.alt.factory;
      rows.push([`dense (FAISS ${f})`, r.alt.latency.dense], [`hybrid (FAISS ${f})`, r.alt.latency.hybrid], [`**hybrid + USE-lite query embedding (FAISS ${f})**`, r.alt.latency.hybridUse]);
    }
    for (const [name, s] of rows) lines.push(`| ${int(r.snippets)} | ${name} | ${s.n} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} |`);
  }
  lines.push('', 'Building and indexing:', '');
  lines.push('| snippets | articles | import (store + FTS5) | dense index (FAISS add) | FAISS type | database (with FTS5) | FTS5 | FAISS file | peak RSS |', '| ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    lines.push(
      `| ${int(r.snippets)} | ${int(r.articles)}${r.synthetic ? ` (${int(r.synthetic)} synthetic)` : ''} | ${int(r.import.snippetsPerSecond)} snippets/s | ${int(r.index.denseSnippetsPerSecond)} snippets/s (${r.index.seconds} s) | ${r.index.factory ?? '–'} | ${mb(r.sizes.databaseBytes)} | ${mb(r.sizes.bm25Bytes)} | ${mb(r.sizes.faissBytes)} | ${int(r.peakRssMB)} MB |`,
    );
    if (r.alt) lines.push(`| ${int(r.snippets)} | | | rebuilt in ${r.alt.indexSeconds} s | ${r.alt.factory} | | | ${mb(r.alt.faissBytes)} | |`);
  }
  const enc = results.at(-1)?.encoder;
  if (enc) lines.push('', `Sentence encoder ${enc.id}: **${enc.sentencesPerSecond} sentences/s** (${enc.sentences} corpus sentences, batches of 32 sorted by length, ${enc.seconds} s).`);
  lines.push(
    '',
    'What is real and what is substituted: the texts, the import, FTS5, FAISS, the pipeline and the query embedding (the rows that name USE-lite) are the product\'s own.',
    `The corpus vectors are **substitutes**: at ${enc?.sentencesPerSecond ?? '~20'} sentences/s (news sentences; long SciFact sentences run at 15–25/s), embedding the ${int(results.at(-1)?.sentences ?? 0)} distinct sentences of the largest corpus (and titles) with USE-lite would take ${enc ? `about ${Math.round((results.at(-1)?.sentences ?? 0) / enc.sentencesPerSecond / 60)} minutes` : 'hours'} on every benchmark run, so the benchmark writes feature-hashed bag-of-words vectors of the same dimension into a private vector cache and lets \`runIndex\` build FAISS from them. FAISS costs the same for any vectors of that size; the rows without "USE-lite" embed the query with the same substitute (≈0 ms), the bold rows embed it with the real encoder first. "FAISS HNSW32" rows: the same corpus with the dense index rebuilt as HNSW32 (\`QUIN_FAISS_FACTORY=HNSW32\`; the default \`auto\` is exact up to \`QUIN_FAISS_EXACT_MAX\` = 200k).`,
    'Snippets are cut with stride 1 (the product uses 3) so that the shared corpora (Reuters-21578, BBC News, HuffPost, SciFact) reach 100k snippets of the product\'s length; "dense index" throughput excludes embedding (see the encoder line for that).',
  );
  return lines.join('\n');
}
