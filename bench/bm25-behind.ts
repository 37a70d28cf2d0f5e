/**
 * BM25 while the accelerator's copy is behind the database, as it is between a crawl's writes and
 * the next `quin index` (indexer/bm25/impact-live.ts). On a copy of a bench build's database (the
 * build itself is left as it is): the BM25 backend's search on claims with the copy fresh; then
 * generations of writes (snippets copied under new ids, and in one generation some removed), the
 * first search after each (which reads the difference); the claims again with the copy behind; and
 * FTS5 itself, which answered every search in that state before, on the first claims — with how many
 * of its lists the accelerator's equal, rows and scores; then the indexer's run that brings the copy
 * up to date (Fts5Index.refreshImpact), and the claims again.
 *
 *   npx tsx bench/bm25-behind.ts [--size 1000000] [--root /tmp/quin-bench] [--rows 100] [--generations 10] [--remove 40] [--queries 200] [--check 60]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Fts5Index } from '../indexer/bm25/fts5';
import type { Hit } from '../indexer/types';
import { analyzeQuery } from '../ranking/query';
import { arg, benchQueries } from './search';
import { loadText } from './serving';
import { summarize } from './stats';

const size = Number(arg('size', '1000000'));
const from = path.join(arg('root', '/tmp/quin-bench'), `bench-${size}`);
const rows = Number(arg('rows', '100'));
const generations = Number(arg('generations', '10'));
const remove = Number(arg('remove', '40'));
const claims = benchQueries(Number(arg('queries', '200'))).map((q) => analyzeQuery(q, { maxChars: 2000 }));
const check = claims.slice(0, Number(arg('check', '60')));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-bm25-behind-'));
try {
  for (const f of ['quin.db', 'quin.db.bm25-impact']) fs.copyFileSync(path.join(from, f), path.join(dir, f));
  // The build's WAL, if its last writer left one, belongs with the copy.
  if (fs.existsSync(path.join(from, 'quin.db-wal'))) fs.copyFileSync(path.join(from, 'quin.db-wal'), path.join(dir, 'quin.db-wal'));
  const file = path.join(dir, 'quin.db');
  const fts = new Fts5Index(file, 'content', { titleWeight: 1.5 });
  const plain = new Fts5Index(file, 'content', { titleWeight: 1.5, impactFile: '' });
  const run = async (index: Fts5Index, qs = claims) => {
    const ms: number[] = [];
    const hits: Hit[][] = [];
    for (const q of qs) {
      const t = performance.now();
      hits.push(await index.search({ text: q.text, terms: q.terms }, 500));
      ms.push(performance.now() - t);
    }
    return { hits, latency: summarize(ms), path: index.lastPath };
  };
  const f = (s: ReturnType<typeof summarize>) => `${s.p50?.toFixed(1)} / ${s.p95?.toFixed(1)} ms`;
  await run(fts, claims.slice(0, 10)); // loads the copy
  const fresh = await run(fts);
  console.log(`${size} snippets · copy fresh (${fresh.path}): ${f(fresh.latency)} (${claims.length} claims, top 500)`);

  const db = new Database(file);
  db.pragma('busy_timeout = 15000');
  const firsts: string[] = [];
  for (let g = 1; g <= generations; g++) {
    db.prepare(
      `INSERT INTO snippets (article_id, position, sentence_start, sentence_end, text, sentence_spans, title, source, published_at)
       SELECT article_id, position + 100000 * ?, sentence_start, sentence_end, text, sentence_spans, title, source, published_at
       FROM snippets WHERE id % 2003 = ? LIMIT ?`,
    ).run(g, g, rows);
    if (g === Math.ceil(generations / 2) && remove > 0)
      db.prepare(`DELETE FROM snippets WHERE id IN (SELECT id FROM snippets WHERE id % 1009 = 3 LIMIT ?)`).run(remove);
    const t = performance.now();
    await fts.search({ text: claims[0]!.text, terms: claims[0]!.terms }, 500);
    firsts.push(`${(performance.now() - t).toFixed(0)}${g === Math.ceil(generations / 2) && remove > 0 ? ` (${remove} removed)` : ''}`);
  }
  db.close();
  console.log(`${generations} writes of ${rows} snippets, the first search after each: ${firsts.join(', ')} ms (${fts.lastPath})`);
  const behind = await run(fts);
  console.log(`copy ${generations * rows} rows behind (${behind.path}): ${f(behind.latency)}`);
  const ref = await run(plain, check);
  const same = ref.hits.filter((h, i) => JSON.stringify(h) === JSON.stringify(behind.hits[i])).length;
  console.log(
    `FTS5 (${ref.path}), what answered in this state before: ${f(ref.latency)} on ${check.length} claims; accelerator identical on ${same} of ${check.length}`,
  );
  // The indexer's run after these writes: the copy brought up to date (impact-store.ts), then served again.
  const refresh = fts.refreshImpact(0);
  const after = await run(fts, check);
  const sameAfter = ref.hits.filter((h, i) => JSON.stringify(h) === JSON.stringify(after.hits[i])).length;
  console.log(
    `index run: ${refresh.reason} in ${refresh.seconds.toFixed(2)} s; then (${after.path}) ${f(after.latency)}, identical to FTS5 on ${sameAfter} of ${check.length}`,
  );
  console.log(`load ${loadText()}`);
  await fts.close();
  await plain.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
