#!/usr/bin/env node
// `npm run demo`: the product with something to search on a machine that cannot reach the news
// feeds. Imports the shared corpora beside the clone (../shared/data, or QUIN_SHARED_DATA) through the
// product's own `quin import` — BBC News, the HuffPost subset, Reuters-21578 and the SciFact
// abstracts; importing again adds nothing — then `quin index` (BM25 and, with the default static
// encoder, the dense vectors in a minute or two) and `npm start`, so that hybrid search covers every
// imported corpus when the server comes up. `quin index` is incremental: a second demo adds nothing.
// The demo sets no encoder of its own: the CLI and the web server, started with or without it, use
// the same configuration, and a dense index is always searched with the encoder that built it.
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
