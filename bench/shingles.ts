/**
 * The rank stage's shingling alone (`shingledText`, ranking/duplicates.ts), on real snippet texts of a
 * bench build: microseconds a passage. With `--before <tree>`, the same function from another checkout
 * of the project runs alternately on the same texts (the machine's noise moves whole runs by a third),
 * and both must give every passage the same shingles and band keys.
 *
 *   npx tsx bench/shingles.ts [--size 1000000] [--root /tmp/quin-bench] [--passages 20000] [--rounds 16] [--before ../old-tree]
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { shingledText } from '../ranking/duplicates';
import { arg } from './search';
import { loadText } from './serving';

type Shingle = typeof shingledText;
const size = Number(arg('size', '1000000'));
const file = path.join(arg('root', '/tmp/quin-bench'), `bench-${size}`, 'quin.db');
const passages = Number(arg('passages', '20000'));
const rounds = Number(arg('rounds', '16'));
const beforeTree = arg('before', '');

const sides: { name: string; run: Shingle; us: number[] }[] = [{ name: 'this tree', run: shingledText, us: [] }];
if (beforeTree) {
  const mod = (await import(path.resolve(beforeTree, 'ranking/duplicates.ts'))) as { shingledText: Shingle };
  sides.unshift({ name: `before (${beforeTree})`, run: mod.shingledText, us: [] });
}
const db = new Database(file, { readonly: true, fileMustExist: true });
const step = Math.max(1, Math.floor((db.prepare('SELECT max(id) FROM snippets').pluck().get() as number) / passages));
const texts = db.prepare('SELECT text FROM snippets WHERE id % ? = 0 LIMIT ?').pluck().all(step, passages) as string[];
db.close();
if (sides.length > 1) {
  const seen = (run: Shingle, t: string) => JSON.stringify([[...run(t).set], run(t).keys]);
  const differ = texts.filter((t) => seen(sides[0]!.run, t) !== seen(sides[1]!.run, t)).length;
  if (differ) throw new Error(`the two trees shingle ${differ} of ${texts.length} passages differently`);
}
for (let r = 0; r < rounds; r++)
  for (const s of r % 2 ? [...sides].reverse() : sides) {
    const t = performance.now();
    for (const text of texts) s.run(text);
    s.us.push(((performance.now() - t) * 1000) / texts.length);
  }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${texts.length} passages of the ${size} bench build, ${rounds} rounds (the first two warm up); µs a passage:`);
for (const s of sides) console.log(`  ${s.name}: median ${median(s.us.slice(2)).toFixed(2)}, best ${Math.min(...s.us).toFixed(2)}`);
if (sides.length > 1) console.log('  both trees give every passage the same shingles and band keys');
console.log(`load ${loadText()}`);
