#!/usr/bin/env node
// Runs scripts/setup.sh when the set-up has not run on this clone, or when its inputs changed since
// (dependencies in package.json or the lockfile, the schema, the set-up steps). `--stamp` records the current inputs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupInputsHash, setupIsCurrent, STAMP_FILE } from './setup-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv.includes('--stamp')) {
  fs.writeFileSync(path.join(root, STAMP_FILE), setupInputsHash(root) + '\n');
} else if (!setupIsCurrent(root)) {
  process.stderr.write('set-up needed (fresh clone or changed dependencies): running scripts/setup.sh\n');
  const r = spawnSync('bash', [path.join(root, 'scripts/setup.sh')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
