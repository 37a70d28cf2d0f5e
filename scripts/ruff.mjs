#!/usr/bin/env node
// Lints the project's Python (training/) with Ruff — the real linter, run from npm's WebAssembly build
// (@astral-sh/ruff-wasm-nodejs), since PyPI cannot be reached here. The settings are SETTINGS below
// (pyflakes, pycodestyle, bugbear). Exits 1 and lists every finding when there is one.
//   node scripts/ruff.mjs [files...]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Workspace, PositionEncoding } from '@astral-sh/ruff-wasm-nodejs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SETTINGS = { 'line-length': 160, lint: { select: ['E', 'F', 'W', 'B', 'I'], ignore: ['E501', 'E731', 'B905', 'I001'] } };

function pythonFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === '__pycache__' || e.name === 'node_modules' ? [] : pythonFiles(p);
    return e.name.endsWith('.py') ? [p] : [];
  });
}

const files = process.argv.slice(2).length ? process.argv.slice(2).map((f) => path.resolve(f)) : pythonFiles(path.join(root, 'training'));
const ws = new Workspace(SETTINGS, PositionEncoding.Utf16);
let problems = 0;
for (const file of files) {
  for (const d of ws.check(fs.readFileSync(file, 'utf8'))) {
    problems++;
    console.log(`${path.relative(root, file)}:${d.start_location.row}:${d.start_location.column}: ${d.code ?? ''} ${d.message}`);
  }
}
console.log(`ruff ${Workspace.version()}: ${files.length} files, ${problems} problem${problems === 1 ? '' : 's'}`);
process.exit(problems ? 1 : 0);
