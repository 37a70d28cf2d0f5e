/**
 * `npm run bench:check [-- --size 100000 --claims 20 --runs 3 --root DIR --concurrency N --rerank-depth N]`
 *
 * How long an article check takes, as a reader meets it: an article of `--claims` check-worthy
 * sentences (a real BBC article from ../shared/data, the first in file order with that many whose
 * text the index holds, so that its claims meet their coverage) served
 * as a web page from a local HTTP server, fetched through the crawler's guarded client, extracted,
 * its claims picked and split, each part checked by the search pipeline (hybrid retrieval, the
 * reranker, the verdict) over an index of `--size` snippets built from the shared corpora
 * (bench/build.ts, the same data dir `bench:search` builds; built here first when missing, in a child
 * process). Prints, per run: seconds to the whole report, seconds to the first verdict, claims and
 * parts, each part's search p50 / p95 and its slowest stages, and the load average (the machine is
 * shared: the numbers mean little without it). The search context is opened and warmed first, as the
 * web server does at start.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { checkArticle, extractClaims, type CheckEvent, type CheckSummary } from '../check';
import { closeSearchIndexes } from '../indexer';
import { loadConfig } from '../lib/config';
import { createDb } from '../lib/db/client';
import { sharedDataDir } from '../lib/paths';
import { openSearchContext, search, type SearchRequest, type SearchResponse } from '../ranking';
import { benchConfig, buildBench } from './build';
import { summarize } from './stats';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const loadAverage = () => os.loadavg().map((l) => round(l));

/** The first BBC article (in file order) with at least `n` check-worthy sentences whose coverage is in the index (`stored`). */
export function benchArticle(n: number, stored: (file: string) => boolean): { file: string; title: string; text: string } {
  const root = path.join(sharedDataDir(), 'news', 'bbc');
  if (!fs.existsSync(root)) throw new Error(`the BBC corpus is missing: ${root} (the benchmark reads ../shared/data)`);
  for (const topic of fs.readdirSync(root).sort()) {
    const dir = path.join(root, topic);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const name of fs.readdirSync(dir).sort()) {
      if (!stored(`${topic}/${name}`)) continue;
      const [title, ...rest] = fs.readFileSync(path.join(dir, name), 'utf8').split('\n');
      const text = rest.join('\n').trim();
      if (extractClaims({ title, text }).claims.length >= n) return { file: `${topic}/${name}`, title: title!.trim(), text };
    }
  }
  throw new Error(`no BBC article has ${n} check-worthy sentences`);
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The article as a news page (header, navigation, the text in paragraphs), served on 127.0.0.1. */
async function servePage(a: { title: string; text: string }): Promise<{ url: string; close: () => Promise<void> }> {
  const body = a.text
    .split(/\n+/)
    .filter((p) => p.trim())
    .map((p) => `<p>${escape(p)}</p>`)
    .join('\n');
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escape(a.title)}</title></head><body><nav><a href="/">Home</a></nav><article><h1>${escape(a.title)}</h1>${body}</article><footer>Share this article</footer></body></html>`;
  const server = http.createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/news/article.html`, close: () => new Promise((r) => server.close(() => r())) };
}

function ensureBuilt(size: number, root: string): void {
  if (fs.existsSync(path.join(root, `bench-${size}`, 'quin.db'))) return;
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, process.argv[1]!, '--phase', 'build', '--size', String(size), '--root', root],
    {
      stdio: 'inherit',
    },
  );
  if (child.status !== 0) throw new Error(`building the ${size}-snippet index failed (exit ${child.status})`);
}

async function buildPhase(size: number, root: string): Promise<void> {
  const base = loadConfig({ env: { ...process.env, DATABASE_URL: '', ELASTICSEARCH_URL: '' } });
  const built = await buildBench(size, root, base);
  console.log(`built ${built.snippets} snippets (${built.articles} articles) in ${root}/bench-${size}`);
  await built.db.$disconnect();
}

interface RunResult {
  summary: CheckSummary;
  /** Each part's verdict in reading order, one letter each (S, R, M, N): runs with other settings compare by it. */
  labels: string;
  searches: number[];
  stages: Record<string, number[]>;
}

async function timedCheck(url: string, claims: number, deps: Parameters<typeof checkArticle>[1]): Promise<RunResult> {
  const searches: number[] = [];
  const stages: Record<string, number[]> = {};
  const runSearch = async (r: SearchRequest): Promise<SearchResponse> => {
    const res = await deps.runSearch(r);
    searches.push(res.timingsMs.total ?? 0);
    for (const [k, v] of Object.entries(res.timingsMs)) (stages[k] ??= []).push(v);
    return res;
  };
  let summary: CheckSummary | null = null;
  let labels = '';
  for await (const e of checkArticle({ url, maxClaims: claims }, { ...deps, runSearch }) as AsyncGenerator<CheckEvent>) {
    if (e.type === 'done') summary = e.summary;
    if (e.type === 'claim') labels += e.claim.results.map((p) => p.label[0]).join('') + ' ';
  }
  return { summary: summary!, searches, stages, labels: labels.trim() };
}

async function main(): Promise<void> {
  const size = Number(arg('size', '100000'));
  const root = path.resolve(arg('root', path.join(os.tmpdir(), 'quin-bench')));
  if (arg('phase', 'run') === 'build') return buildPhase(size, root);
  const claims = Number(arg('claims', '20'));
  const runs = Number(arg('runs', '3'));
  ensureBuilt(size, root);
  const base = loadConfig({ env: { ...process.env, DATABASE_URL: '', ELASTICSEARCH_URL: '' } });
  const config = { ...benchConfig(path.join(root, `bench-${size}`), base), allowPrivateHosts: true };
  const db = createDb(config);
  const ctx = await openSearchContext(config, db);
  // Warm, as the web server is after start (instrumentation.ts): models loaded, first queries run.
  for (const q of ['Profits rose at the bank last year.', 'The minister resigned on Friday.']) await search({ q }, ctx);
  // An article the index holds (as corpus://bbc/<topic>/<number>): checked against its own coverage, as a reader
  // checking a story already reported would be.
  const bbc = await db.article.findMany({ where: { canonicalUrl: { startsWith: 'corpus://bbc/' } }, select: { canonicalUrl: true } });
  const held = new Set(bbc.map((a) => a.canonicalUrl.replace('corpus://bbc/', '')));
  const article = benchArticle(claims, (file) => held.has(file.replace(/\.txt$/, '')));
  const page = await servePage(article);
  const concurrency = arg('concurrency', '') ? Number(arg('concurrency', '')) : undefined;
  const rerankDepth = arg('rerank-depth', '') ? Number(arg('rerank-depth', '')) : undefined;
  console.log(`article: bbc/${article.file} "${article.title}" (${claims} claims checked), index: ${size} snippets`);
  try {
    for (let i = 0; i < runs; i++) {
      const load = loadAverage();
      const r = await timedCheck(page.url, claims, { config, db, runSearch: (req) => search(req, ctx), concurrency, rerankDepth });
      const s = summarize(r.searches);
      const stageP50 = Object.entries(r.stages)
        .filter(([k]) => k !== 'total')
        .map(([k, v]) => [k, summarize(v).p50 ?? 0] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([k, v]) => `${k} ${round(v, 0)}`)
        .join(', ');
      console.log(
        `run ${i + 1}: ${r.summary.seconds} s in all, first verdict ${r.summary.firstVerdictSeconds} s; ${r.summary.claims} claims, ${r.summary.parts} parts ` +
          `(${r.summary.supported} supported, ${r.summary.refuted} refuted, ${r.summary.notSettled} not settled); ` +
          `search p50 / p95 ${round(s.p50 ?? 0, 0)} / ${round(s.p95 ?? 0, 0)} ms (stage p50 ms: ${stageP50}); load average ${load.join(' ')} → ${loadAverage().join(' ')}; parts: ${r.labels}`,
      );
    }
  } finally {
    await page.close();
    await closeSearchIndexes();
    await db.$disconnect();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
