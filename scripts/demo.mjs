#!/usr/bin/env node
// `npm run demo`: the product with something to search on a machine that cannot reach the news
// feeds. Imports the shared corpora beside the clone (../shared/data, or QUIN_SHARED_DATA) through the
// product's own `quin import` — BBC News, the HuffPost subset, Reuters-21578 and the SciFact
// abstracts; importing again adds nothing — then `quin index` (BM25 and, with the default static
// encoder, the dense vectors in a minute or two) and `npm start`, so that hybrid search covers every
// imported corpus when the server comes up. `quin index` is incremental: a second demo adds nothing.
//
// The port is checked first (a busy PORT ends the demo before minutes of importing). Ctrl-C, SIGTERM
// or SIGHUP during the import or the indexing stops the step in progress cleanly (`quin index` stops
// at a checkpoint) and ends the demo; afterwards they reach start.mjs as with `npm start`.
// package.json execs this script, so that a SIGTERM sent to npm reaches it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPort } from './start/port.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shared = process.env.QUIN_SHARED_DATA ? path.resolve(process.env.QUIN_SHARED_DATA) : path.resolve(root, '..', 'shared', 'data');
const say = (m) => process.stderr.write(`demo: ${m}\n`);

const corpora = [
  ['bbc', 'news/bbc'],
  ['huffpost', 'news/huffpost/news_category_subset.json'],
  ['reuters', 'news/reuters21578'],
  ['scifact', 'scifact/corpus.jsonl'],
];

// The demo sets no encoder of its own: the CLI and the web server, started with or without it, use
// the same configuration, and a dense index is always searched with the encoder that built it.

// One step at a time, in a process group of its own: a terminal's Ctrl-C reaches this script only, which
// passes exactly one SIGTERM on (two would make `quin index` quit without its checkpoint).
let current = null;
let stopping = false;
let firstSignalAt = 0;
function onSignal(signal) {
  if (stopping) {
    if (Date.now() - firstSignalAt < 1500) return; // the terminal's and npm's copy of one Ctrl-C
    say('second signal: stopping at once');
    if (current) process.kill(-current.pid, 'SIGKILL');
    process.exit(130);
  }
  stopping = true;
  firstSignalAt = Date.now();
  const step = current?.spawnargs.includes('index')
    ? 'the indexing (it stops at a checkpoint; the next demo goes on from there)'
    : 'the import';
  say(`${signal} received: stopping${current ? ` ${step}` : ''} ...`);
  if (current) process.kill(-current.pid, 'SIGTERM');
  else {
    say('stopped');
    process.exit(0);
  }
}
const handlers = ['SIGINT', 'SIGTERM', 'SIGHUP'].map((s) => [s, () => onSignal(s)]);
for (const [s, h] of handlers) process.on(s, h);

/** Runs `quin <args>`; resolves its exit code. A stop requested meanwhile ends the demo once the step has stopped. */
function quin(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/quin.mjs'), ...args], {
      cwd: root,
      stdio: 'inherit',
      env: process.env,
      detached: true,
    });
    current = child;
    child.once('error', (e) => {
      say(`cannot run quin: ${e.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => {
      current = null;
      if (stopping) {
        say('stopped');
        process.exit(0);
      }
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || 3000);
const busy = Number.isInteger(port) && port > 0 && port < 65536 ? await checkPort(host, port, 'npm run demo') : null;
if (busy) {
  say(busy);
  process.exit(1);
}

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
    const code = await quin(['import', format, p]);
    if (code !== 0) process.exit(code);
  }
  say('indexing (BM25 and dense vectors)');
  const code = await quin(['index']);
  if (code !== 0) process.exit(code);
}
// In this process, so that Ctrl-C and SIGTERM reach the supervisor as with `npm start`.
for (const [s, h] of handlers) process.off(s, h);
await import('./start.mjs');
