/**
 * Search latency while the crawler writes and the indexer runs, as a deployment lives: the tables of
 * bench:search serve a corpus that does not change. On a copy of a bench build (the build is left
 * as it is), two child processes play the worker — one stores `--rows` snippets every `--write-every`
 * seconds (copies of existing ones under new ids, the FTS5 triggers firing as for a crawl), the other
 * runs `runIndex` every `--index-every` seconds (the BM25 accelerator's update, the new snippets
 * encoded and added to the dense index, a checkpoint) — while this process searches claims one after
 * another for `--seconds`, with the web server's Node flags, and prints the latency per mode.
 *
 *   npx tsx bench/serve-while-writing.ts [--size 1000000] [--root /tmp/quin-bench] [--seconds 90] [--modes bm25,hybrid]
 *     [--rows 100] [--write-every 2] [--index-every 15] [--index-nice 10]
 *
 * `--index-nice`: the indexing child's priority, as the worker sets it (lib/priority.ts); 0 leaves it
 * at the searches' own.
 */
import { fork, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { runIndex } from '../indexer';
import { loadConfig, type Config } from '../lib/config';
import { createDb } from '../lib/db/client';
import { INDEXER_NICE, lowerPriority } from '../lib/priority';
import { heapLimitMB } from '../lib/web/node-flags';
import { openSearchContext, search } from '../ranking';
import { benchConfig } from './build';
import { arg, benchQueries } from './search';
import { closeServing, loadText, serveAsWebServer } from './serving';
import { summarize } from './stats';

const size = Number(arg('size', '1000000'));
const rows = Number(arg('rows', '100'));
const writeEvery = Number(arg('write-every', '2')) * 1000;
const indexEvery = Number(arg('index-every', '15')) * 1000;

function configOf(dir: string): Config {
  return benchConfig(dir, loadConfig({ env: { ...process.env, DATABASE_URL: '', ELASTICSEARCH_URL: '' } }));
}

/**
 * The worker's two loops, each in a child of its own as `npm start` runs them (the crawler stores;
 * the indexer is a process of its own): `write` stores on one timer, `index` runs `runIndex` on another.
 */
async function worker(role: string, dir: string): Promise<void> {
  const config = configOf(dir);
  let stop = false;
  process.on('message', () => (stop = true));
  const out = { writes: 0, indexSeconds: [] as number[] };
  if (role === 'write') {
    const sql = new Database(path.join(dir, 'quin.db'));
    sql.pragma('busy_timeout = 15000');
    const insert = sql.prepare(
      `INSERT INTO snippets (article_id, position, sentence_start, sentence_end, text, sentence_spans, title, source, published_at)
       SELECT article_id, position + 100000 * ?, sentence_start, sentence_end, text, sentence_spans, title, source, published_at
       FROM snippets WHERE id % 997 = ? LIMIT ?`,
    );
    for (let g = 1; !stop; g++) {
      insert.run(g, g % 997, rows);
      out.writes++;
      await sleep(writeEvery);
    }
    sql.close();
  } else {
    // As the worker's indexing process does (cli/commands/worker-index-process.ts), unless told otherwise.
    const nice = Number(arg('index-nice', String(INDEXER_NICE)));
    if (nice > 0) lowerPriority(nice);
    const db = createDb(config);
    while (!stop) {
      await sleep(indexEvery);
      if (stop) break;
      const t = performance.now();
      await runIndex(db, config, { progress: false });
      out.indexSeconds.push(Math.round((performance.now() - t) / 100) / 10);
    }
    await db.$disconnect();
  }
  process.send!(out, () => process.disconnect());
}

type WorkerOut = { writes: number; indexSeconds: number[] };

function startWorker(role: 'write' | 'index', dir: string): { stop: () => Promise<WorkerOut> } {
  const child = fork(process.argv[1]!, [...process.argv.slice(2), '--worker', role, dir], { execArgv: process.execArgv });
  const done = new Promise<WorkerOut>((resolve) => child.once('message', (m) => resolve(m as WorkerOut)));
  return {
    stop: async () => {
      child.send('stop');
      const out = await done;
      child.kill();
      return out;
    },
  };
}

async function main(): Promise<void> {
  const from = path.join(arg('root', '/tmp/quin-bench'), `bench-${size}`);
  const seconds = Number(arg('seconds', '90'));
  const modes = arg('modes', 'bm25,hybrid').split(',') as ('bm25' | 'hybrid')[];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-serve-writing-'));
  try {
    spawnSync('cp', ['-r', `${from}/.`, dir], { stdio: 'inherit' });
    const config = configOf(dir);
    const db = createDb(config);
    const ctx = await openSearchContext(config, db, { rerank: false, verdict: false });
    const claims = benchQueries(400);
    for (const q of claims.slice(0, 10)) await search({ q, mode: 'hybrid', k: 10, rerank: false, verdict: false }, ctx);
    const writer = startWorker('write', dir);
    const indexer = startWorker('index', dir);
    const ms: Record<string, number[]> = Object.fromEntries(modes.map((m) => [m, []]));
    const slowest: { ms: number; mode: string; stages: Record<string, number> }[] = [];
    const started = performance.now();
    for (let i = 0; performance.now() - started < seconds * 1000; i++) {
      const mode = modes[i % modes.length]!;
      const t = performance.now();
      const res = await search({ q: claims[i % claims.length]!, mode, k: 10, rerank: false, verdict: false }, ctx);
      const took = performance.now() - t;
      ms[mode]!.push(took);
      slowest.push({ ms: Math.round(took), mode, stages: res.timingsMs });
      slowest.sort((a, b) => b.ms - a.ms).splice(5);
    }
    const [w, x] = [await writer.stop(), await indexer.stop()];
    console.log(
      `${size} snippets, ${seconds} s of searches while the worker stored ${rows} snippets every ${writeEvery / 1000} s (${w.writes} writes) and ran runIndex every ${indexEvery / 1000} s at nice ${arg('index-nice', String(INDEXER_NICE))} (${x.indexSeconds.length} runs: ${x.indexSeconds.join(', ')} s)`,
    );
    for (const m of modes) {
      const s = summarize(ms[m]!);
      const slow = ms[m]!.filter((v) => v > 250).length;
      console.log(
        `  ${m}: ${s.n} searches · p50 ${s.p50} · p95 ${s.p95} · p99 ${s.p99} · max ${Math.round(Math.max(...ms[m]!))} ms · over 250 ms: ${slow}`,
      );
    }
    const stages = (t: Record<string, number>) =>
      Object.entries(t)
        .map(([k, v]) => `${k} ${Math.round(v)}`)
        .join(', ');
    for (const s of slowest) console.log(`  slow: ${s.mode} ${s.ms} ms (${stages(s.stages)})`);
    console.log(`  heap limit ${heapLimitMB()} MB · load ${loadText()}`);
    await closeServing(db);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const at = process.argv.indexOf('--worker');
if (at >= 0) await worker(process.argv[at + 1]!, process.argv[at + 2]!);
else {
  serveAsWebServer();
  await main();
}
