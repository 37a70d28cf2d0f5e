#!/usr/bin/env node
// `npm run demo`: the product with something to search on a machine that cannot reach the news
// feeds. Imports the shared corpora beside the clone (../shared/data, or QUIN_SHARED_DATA) through the
// product's own `quin import` — BBC News, the HuffPost subset, Reuters-21578 and the SciFact
// abstracts; importing again adds nothing — then `quin index` (BM25 and, with the static encoder the
// demo selects, the dense vectors in a minute or two) and `npm start`, so that hybrid search covers every
// imported corpus when the server comes up. `quin index` is incremental: a second demo adds nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shared = process.env.QUIN_SHARED_DATA ? path.resolve(process.env.QUIN_SHARED_DATA) : path.resolve(root, '..', 'shared', 'data');
const say = (m) => process.stderr.write(`demo: ${m}\n`);

const corpora = [
  ['bbc', 'news/bbc'],
  ['huffpost', 'news/huffpost/news_category_subset.json'],
  ['reuters', 'news/reuters21578'],
  ['scifact', 'scifact/corpus.jsonl'],
];

// Speed over the last points of quality: the static encoder indexes ~86k snippets in a minute or two,
// USE-lite would take hours (models/quin-static/README.md compares them). An explicit choice wins.
process.env.QUIN_ENCODER ??= 'static';
const run = (file, args) =>
  spawnSync(process.execPath, [path.join(root, file), ...args], { cwd: root, stdio: 'inherit', env: process.env });

if (!fs.existsSync(shared)) {
  say(`no shared data at ${shared} (set QUIN_SHARED_DATA); starting without a demo corpus`);
} else {
  for (const [format, rel] of corpora) {
    const p = path.join(shared, rel);
    if (!fs.existsSync(p)) {
      say(`skipping ${format}: ${p} is missing`);
      continue;
    }
    say(`importing ${format} from ${p}`);
    const r = run('bin/quin.mjs', ['import', format, p]);
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  say('indexing (BM25 and dense vectors)');
  const r = run('bin/quin.mjs', ['index']);
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// In this process, so that Ctrl-C and SIGTERM reach the supervisor as with `npm start`.
await import('./start.mjs');
