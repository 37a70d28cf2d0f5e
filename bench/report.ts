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
  stagesP95?: Record<string, Record<string, number | null>>;
  encoder: { id: string; sentences: number; seconds: number; sentencesPerSecond: number };
  peakRssMB: number;
  /** The same corpus with another FAISS index (--alt-factory). */
  alt?: { factory: string; indexSeconds: number; faissBytes: number; recall?: Record<string, number>; latency: { dense: LatencySummary; hybrid: LatencySummary; hybridUse: LatencySummary } };
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
      [`dense (FAISS ${r.index.factory ?? ''})`, r.latency.dense],
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
  for (const r of results) {
    if (r.alt?.recall) {
      const exact = /^Flat$/i.test(r.alt.factory) ? r.alt.factory : r.index.factory;
      const approx = exact === r.alt.factory ? r.index.factory : r.alt.factory;
      lines.push('', `Dense recall at ${int(r.snippets)} snippets: ${approx} returns ${Object.entries(r.alt.recall).map(([k, v]) => `${(v * 100).toFixed(1)}% of the exact (${exact}) top ${k.slice(1)}`).join(', ')} (100 queries; FAISS's HNSW searches with ef = max(efSearch 16, k), so k = 500 candidates explore 500 nodes).`);
    }
  }
  const stageRows = results.filter((r) => r.stagesP95);
  if (stageRows.length) {
    const names = ['analyze', 'embed', 'bm25', 'dense', 'fuse', 'load', 'rank', 'evidence', 'total'];
    lines.push('', 'Stage timings of the same runs (ms, p50 / p95 per stage; BM25 starts before the query embedding without waiting for it, dense waits for the embedding):', '');
    lines.push(`| snippets | query | ${names.join(' | ')} |`, `| ---: | --- | ${names.map(() => '---:').join(' | ')} |`);
    for (const r of stageRows) {
      for (const [mode, label] of [['bm25', 'BM25'], ['hybrid', 'hybrid'], ['hybridUse', 'hybrid + USE-lite']] as const) {
        const p50 = r.stagesP50[mode];
        const p95 = r.stagesP95![mode];
        if (!p50 || !p95) continue;
        lines.push(`| ${int(r.snippets)} | ${label} | ${names.map((n) => (p50[n] == null ? '–' : `${ms(p50[n]!)} / ${ms(p95[n] ?? null)}`)).join(' | ')} |`);
      }
    }
  }
  const enc = results.at(-1)?.encoder;
  if (enc) lines.push('', `Sentence encoder ${enc.id}: **${enc.sentencesPerSecond} sentences/s** (${enc.sentences} corpus sentences, batches of 32 sorted by length, ${enc.seconds} s).`);
  lines.push(
    '',
    'What is real and what is substituted: the texts, the import, FTS5, FAISS, the pipeline and the query embedding (the rows that name USE-lite) are the product\'s own.',
    `The corpus vectors are **substitutes**: at ${enc?.sentencesPerSecond ?? '~20'} sentences/s (news sentences; long SciFact sentences run at 15–25/s), embedding the ${int(results.at(-1)?.sentences ?? 0)} distinct sentences of the largest corpus (and titles) with USE-lite would take ${enc ? `about ${Math.round((results.at(-1)?.sentences ?? 0) / enc.sentencesPerSecond / 60)} minutes` : 'hours'} on every benchmark run, so the benchmark writes feature-hashed bag-of-words vectors of the same dimension into a private vector cache and lets \`runIndex\` build FAISS from them. FAISS costs the same for any vectors of that size; the rows without "USE-lite" embed the query with the same substitute (≈0 ms), the bold rows embed it with the real encoder first. The FAISS type is the default \`auto\` (exact up to \`QUIN_FAISS_EXACT_MAX\` = 50k snippets, HNSW32 above); the "FAISS Flat" rows rebuild the same corpus's dense index as an exact one for comparison.`,
    'BM25: FTS5 in the database; from `QUIN_BM25_IMPACT_MIN` (20k) snippets `quin index` keeps an exact in-memory copy of its postings that answers unfiltered queries with the same rows (indexer/bm25/impact.ts), so the 100k rows measure that copy and the 10k rows FTS5 itself.',
    'Snippets are cut with stride 1 (the product uses 3) so that the shared corpora (Reuters-21578, BBC News, HuffPost, SciFact) reach 100k snippets of the product\'s length; "dense index" throughput excludes embedding (see the encoder line for that).',
  );
  return lines.join('\n');
}
