/** The Markdown tables of `npm run bench:search` (pure). */
import type { LatencySummary } from './stats';

export interface BenchBuild {
  size: number;
  snippets: number;
  articles: number;
  synthetic: number;
  import: { seconds: number; snippetsPerSecond: number };
  /** `runIndex`: BM25 (accelerator) + encoding + FAISS (train, add, checkpoint). */
  index: { seconds: number; bm25Seconds: number; denseSeconds: number; factory: string | null; encoder: string };
  sizes: { databaseBytes: number; bm25Bytes: number | null; faissBytes: number; acceleratorBytes: number };
  peakRssMB: number;
  loadAverage: number[];
}

export interface BenchServe {
  queries: number;
  openSeconds: number;
  latency: {
    bm25: LatencySummary;
    dense: LatencySummary;
    hybrid: LatencySummary;
    rerank: LatencySummary | null;
    verdict: LatencySummary | null;
    queryEmbed: LatencySummary;
  };
  stagesP50: Record<string, Record<string, number | null>>;
  stagesP95: Record<string, Record<string, number | null>>;
  /** rerankDepth: candidates the reranker reads (absent in runs before 2026-11-30). */
  models: { reranker: string | null; rerankDepth?: number | null; nli: string | null };
  encoder: { id: string; sentences: number; seconds: number; sentencesPerSecond: number };
  /** A 5-story import while serving, `runIndex`, and when BM25 and dense search found every story (seconds after runIndex ended). */
  live?: {
    articles: number;
    importSeconds: number;
    indexSeconds: number;
    bm25Seconds: number;
    denseSeconds: number | null;
    visibleAfterSeconds: { bm25: number | null; dense: number | null };
    /** Most stories each mode returned in its top 10 in one round. */
    found?: { bm25: number; dense: number };
    /** Stored, before `runIndex`: BM25's latency on 50 claims and the stories it found (absent in runs before 2026-11-30). */
    behind?: { bm25: LatencySummary; found: number };
  };
  /** Peak RSS of the serving process before the live update (which indexes in the same process). */
  peakRssMB: number;
  /** The serving process's V8 heap limit (it runs with the web server's flags, lib/web/node-flags.ts); absent in runs before 2026-11-30. */
  heapLimitMB?: number;
  loadAverage: number[];
}

export interface BenchResult {
  build: BenchBuild;
  serve: BenchServe;
}

const mb = (b: number | null) => (b === null ? '–' : `${(b / 2 ** 20).toFixed(0)} MB`);
const ms = (x: number | null) => (x === null ? '–' : x.toFixed(1));
const int = (x: number) => x.toLocaleString('en-US');
const load = (l: number[]) => l.map((v) => v.toFixed(1)).join(' / ');
const minutes = (s: number) => (s >= 120 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(0)} s`);

export function formatBenchMarkdown(results: readonly BenchResult[], meta: { machine: string; command: string; date: string }): string {
  const lines: string[] = [];
  lines.push(
    `Command: \`${meta.command}\` · machine: ${meta.machine} · ${meta.date}. The machine is shared with other agents: the load average (1 / 5 / 15 min) at the end of each phase is given beside its numbers.`,
    '',
  );
  lines.push(
    'Indexing end to end (a fresh data dir: import = store articles and snippets, FTS5 by triggers; index = `runIndex`: BM25 accelerator, sentence encoding, FAISS train + add + checkpoint):',
    '',
  );
  lines.push(
    '| snippets | articles | import | index (BM25 + encode + FAISS) | **end to end** | FAISS type | database (with FTS5) | BM25 accelerator | FAISS file | **peak RSS** | load |',
    '| ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |',
  );
  for (const { build: b } of results) {
    lines.push(
      `| ${int(b.snippets)} | ${int(b.articles)}${b.synthetic ? ` (${int(b.synthetic)} synthetic)` : ''} | ${minutes(b.import.seconds)} (${int(b.import.snippetsPerSecond)}/s) | ${minutes(b.index.seconds)} (BM25 ${minutes(b.index.bm25Seconds)}, dense ${minutes(b.index.denseSeconds)}) | **${minutes(b.import.seconds + b.index.seconds)}** | ${b.index.factory ?? '–'} | ${mb(b.sizes.databaseBytes)} | ${mb(b.sizes.acceleratorBytes)} | ${mb(b.sizes.faissBytes)} | **${int(b.peakRssMB)} MB** | ${load(b.loadAverage)} |`,
    );
  }
  lines.push(
    '',
    'Search latency in ms through the product pipeline (`search()` on indexes opened as the web server opens them: top 500 per index, score fusion, time decay, evidence sentences, one result per article, k = 10), **each query embedded by the encoder first**; after 10 warm-up queries; queries are SciFact and Climate-FEVER claims. Reranking' +
      rerankDepths(results) +
      ' and the verdict on fewer queries (60).' +
      heapNote(results),
    '',
  );
  lines.push(
    '| snippets | query | n | p50 | p95 | p99 | serving peak RSS | load |',
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  );
  for (const { build: b, serve: s } of results) {
    const rows: [string, LatencySummary | null][] = [
      ['BM25', s.latency.bm25],
      [`dense (${b.index.factory ?? ''})`, s.latency.dense],
      ['**hybrid**', s.latency.hybrid],
      [`**hybrid + rerank** (${s.models.reranker ?? 'none'})`, s.latency.rerank],
      [`**hybrid + rerank + verdict** (${s.models.nli ?? 'none'})`, s.latency.verdict],
      ['query embedding alone', s.latency.queryEmbed],
    ];
    for (const [name, l] of rows)
      if (l)
        lines.push(
          `| ${int(b.snippets)} | ${name} | ${l.n} | ${ms(l.p50)} | ${ms(l.p95)} | ${ms(l.p99)} | ${int(s.peakRssMB)} MB | ${load(s.loadAverage)} |`,
        );
  }
  const names = ['analyze', 'embed', 'bm25', 'dense', 'fuse', 'load', 'floor', 'rerank', 'rank', 'evidence', 'verdict', 'other', 'total'];
  lines.push(
    '',
    "Stage timings of the same runs (ms, p50 / p95 per stage; the dense search runs in its own thread once the query is embedded, BM25 on the main thread beside it, and the BM25 hits' rows are read while the dense search is still running, so load may be short; floor: the relevance floor, which reads every candidate's text; other: what no stage holds — the total less the stages, retrieval counted once as the longer of BM25 and the embedding plus the dense search):",
    '',
  );
  lines.push(`| snippets | query | ${names.join(' | ')} |`, `| ---: | --- | ${names.map(() => '---:').join(' | ')} |`);
  for (const { build: b, serve: s } of results) {
    for (const mode of Object.keys(s.stagesP50)) {
      const p50 = s.stagesP50[mode]!;
      const p95 = s.stagesP95[mode] ?? {};
      lines.push(
        `| ${int(b.snippets)} | ${mode} | ${names.map((n) => (p50[n] == null ? '–' : `${ms(p50[n]!)} / ${ms(p95[n] ?? null)}`)).join(' | ')} |`,
      );
    }
  }
  if (results.some((r) => r.serve.live)) {
    lines.push(
      '',
      "Live update while serving: 5 new stories stored; BM25 timed on 50 claims and the stories looked for while the accelerator's copy is behind the database (as between a crawl's writes and the next index run: the copy answers with the rows written since, bm25/impact-live.ts); then `runIndex` (as `quin index`: the BM25 accelerator brought up to date by the difference, the new snippets encoded and added to FAISS), then each looked for by its title and first sentence every 250 ms until BM25 and dense search both return all five in their top 10 (else how many they found within 30 s):",
      '',
      '| snippets | store | BM25 before `runIndex`: p50 / p95 ms, stories found | `runIndex` (BM25 accelerator, dense) | BM25 finds them after | dense finds them after |',
      '| ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    const before = (l: NonNullable<BenchServe['live']>) =>
      l.behind ? `${ms(l.behind.bm25.p50)} / ${ms(l.behind.bm25.p95)}, ${l.behind.found} of ${l.articles}` : '–';
    const sec = (x: number | null) => (x === null ? '–' : `${x.toFixed(1)} s`);
    const after = (x: number | null, n: number | undefined, of: number) =>
      x !== null ? `${x.toFixed(1)} s` : `${n ?? '?'} of ${of} within 30 s`;
    for (const { build: b, serve: s } of results) {
      const l = s.live;
      if (!l) continue;
      lines.push(
        `| ${int(b.snippets)} | ${sec(l.importSeconds)} | ${before(l)} | ${sec(l.indexSeconds)} (${sec(l.bm25Seconds)}, ${sec(l.denseSeconds)}) | ${after(l.visibleAfterSeconds.bm25, l.found?.bm25, l.articles)} | ${after(l.visibleAfterSeconds.dense, l.found?.dense, l.articles)} |`,
      );
    }
  }
  const last = results.at(-1);
  if (last) {
    const e = last.serve.encoder;
    lines.push(
      '',
      `Sentence encoder \`${e.id}\`: **${int(e.sentencesPerSecond)} sentences/s** on one core (${int(e.sentences)} distinct corpus sentences in batches of 32, ${e.seconds} s).`,
    );
  }
  lines.push(
    '',
    "Everything is real: the texts, the import, FTS5, the encoder (its vectors for every snippet and every query), FAISS, the pipeline and the models. The corpora (Reuters-21578, BBC News, HuffPost, SciFact) hold about 141k snippets when cut with stride 1 (windows of 5 sentences starting at every sentence; the product uses stride 3, so that the snippets have the product's length); **beyond that the corpus is synthetic articles of 20 real sentences drawn at random from them** (seeded), dated over 2018–2024.",
  );
  return lines.join('\n');
}

/** The distinct values the runs recorded (runs before 2026-11-30 recorded neither of these). */
function recorded(results: readonly { serve: BenchServe }[], pick: (s: BenchServe) => number | null | undefined): number[] {
  return [...new Set(results.flatMap((r) => pick(r.serve) || []))];
}

/** What V8 heap limit the serving processes ran with (from 2026-11-30 the web server's own flags, lib/web/node-flags.ts). */
function heapNote(results: readonly { serve: BenchServe }[]): string {
  const limits = recorded(results, (s) => s.heapLimitMB);
  return limits.length
    ? ` The serving process runs with the web server's Node flags (lib/web/node-flags.ts): V8 heap limit ${limits.map(int).join(' / ')} MB.`
    : '';
}

/** How many candidates the reranker read, when the run recorded it. */
function rerankDepths(results: readonly { serve: BenchServe }[]): string {
  const depths = recorded(results, (s) => s.models.rerankDepth);
  return depths.length ? ` (${depths.join(' / ')} candidates)` : '';
}
