#!/usr/bin/env node
// The background worker as `npm start` runs it: `quin worker` through tsx, without bin/quin.mjs's
// set-up check (start.mjs has done it already; a second check must not reinstall under a running app).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
process.env.QUIN_ROOT ??= root;
const { register } = await import(pathToFileURL(path.join(root, 'node_modules/tsx/dist/esm/api/index.mjs')).href);
register();
const { main } = await import(pathToFileURL(path.join(root, 'cli/main.ts')).href);
process.exitCode = await main(['worker', ...process.argv.slice(2)]);
