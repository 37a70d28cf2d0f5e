#!/usr/bin/env node
// The `quin` command: runs the TypeScript CLI through tsx (no build step). On a fresh clone it runs
// the set-up first (dependencies, native modules, Prisma clients), as `npm start` and `npm test` do.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.QUIN_ROOT ??= root;

// Fresh clone or changed dependencies: set up first (quick no-op otherwise).
const setup = spawnSync(process.execPath, [path.join(root, 'scripts/ensure-setup.mjs')], { stdio: ['ignore', 2, 2], cwd: root });
if (setup.status !== 0) process.exit(setup.status ?? 1);

const { register } = await import(pathToFileURL(path.join(root, 'node_modules/tsx/dist/esm/api/index.mjs')).href);
register();
const { main } = await import(pathToFileURL(path.join(root, 'cli/main.ts')).href);
process.exitCode = await main(process.argv.slice(2));
