#!/usr/bin/env node
// Runs a `quin` command for the e2e set-up (through tsx, like bin/quin.mjs, minus its set-up check:
// the test runner has done it).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
process.env.QUIN_ROOT ??= root;
const { register } = await import(pathToFileURL(path.join(root, 'node_modules/tsx/dist/esm/api/index.mjs')).href);
register();
const { main } = await import(pathToFileURL(path.join(root, 'cli/main.ts')).href);
process.exitCode = await main(process.argv.slice(2));
