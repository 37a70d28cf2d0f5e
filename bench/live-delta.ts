/**
 * The read of the difference alone (`readLiveDelta`, bm25/impact-store.ts): what the first BM25 search
 * after each of the crawler's writes pays before it searches, on a copy of a bench build's database
 * (the build is left as it is). Writes of `--rows` snippets (copies of stored ones under new ids), and
 * at the middle one `--remove` rows removed; after each write the difference is read as a search reads
 * it (carrying the previous one). With `--before <tree>`, the same function from another checkout of
 * the project is read alternately on the same database, and both must give the same difference: the
 * machine's noise moves whole runs by ±30 %, so two trees are compared within one run.
 *
 *   npx tsx bench/live-delta.ts [--size 1000000] [--root /tmp/quin-bench] [--rows 100] [--generations 20] [--remove 40] [--before ../old-tree]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { FTS_TOKENIZER } from '../indexer/bm25/fts5';
import { readImpactFile, readLiveDelta, type LiveDeltaOptions } from '../indexer/bm25/impact-store';
import type { LiveDelta } from '../indexer/bm25/impact-live';
import { arg } from './search';
import { loadText } from './serving';

type Read = typeof readLiveDelta;
const size = Number(arg('size', '1000000'));
const from = path.join(arg('root', '/tmp/quin-bench'), `bench-${size}`);
const rows = Number(arg('rows', '100'));
const generations = Number(arg('generations', '20'));
const remove = Number(arg('remove', '40'));
const beforeTree = arg('before', '');

const sides: { name: string; read: Read }[] = [{ name: 'this tree', read: readLiveDelta }];
if (beforeTree) {
  const mod = (await import(path.resolve(beforeTree, 'indexer/bm25/impact-store.ts'))) as { readLiveDelta: Read };
  sides.unshift({ name: `before (${beforeTree})`, read: mod.readLiveDelta });
}
const summary = (d: LiveDelta | null) =>
  d ? `${d.added.docIds.join(',')}|${d.removed ? d.removed.reduce((a, b) => a + b, 0) : 0}` : 'null';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-live-delta-'));
try {
  for (const f of ['quin.db', 'quin.db.bm25-impact']) fs.copyFileSync(path.join(from, f), path.join(dir, f));
  if (fs.existsSync(path.join(from, 'quin.db-wal'))) fs.copyFileSync(path.join(from, 'quin.db-wal'), path.join(dir, 'quin.db-wal'));
  const file = path.join(dir, 'quin.db');
  const saved = readImpactFile(`${file}.bm25-impact`);
  if (!saved) throw new Error(`no BM25 accelerator file beside ${file}: build the bench corpus first`);
  const copy = { fingerprint: saved.fingerprint, docIds: saved.index.blocks.docIds };
  const writer = new Database(file);
  // Each side reads through its own connection, as each web process has its own.
  const state = sides.map((s) => ({
    ...s,
    db: new Database(file, { readonly: true }),
    since: null as LiveDelta | null,
    ms: [] as number[],
  }));
  for (let g = 1; g <= generations; g++) {
    writer
      .prepare(
        `INSERT INTO snippets (article_id, position, sentence_start, sentence_end, text, sentence_spans, title, source, published_at)
         SELECT article_id, position + 100000 * ?, sentence_start, sentence_end, text, sentence_spans, title, source, published_at
         FROM snippets WHERE id % 2003 = ? LIMIT ?`,
      )
      .run(g + 1000, g, rows);
    if (g === Math.ceil(generations / 2) && remove > 0)
      writer.prepare(`DELETE FROM snippets WHERE id IN (SELECT id FROM snippets WHERE id % 1009 = 3 LIMIT ?)`).run(remove);
    // Alternate which side reads first after the write.
    const order = g % 2 ? state : [...state].reverse();
    for (const s of order) {
      const opts: LiveDeltaOptions = { since: s.since };
      const t = performance.now();
      s.since = s.read(s.db, copy, FTS_TOKENIZER, opts);
      s.ms.push(performance.now() - t);
    }
    if (new Set(state.map((s) => summary(s.since))).size > 1) throw new Error(`the two trees read different differences after write ${g}`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `${size} snippets · ${generations} writes of ${rows} snippets, ${remove} removed at write ${Math.ceil(generations / 2)}; the difference read after each (ms):`,
  );
  for (const s of state) console.log(`  ${s.name}: ${s.ms.map((x) => x.toFixed(1)).join(', ')} · median ${median(s.ms).toFixed(1)}`);
  if (state.length > 1) console.log('  both trees read the same difference after every write');
  console.log(`load ${loadText()}`);
  writer.close();
  for (const s of state) s.db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
