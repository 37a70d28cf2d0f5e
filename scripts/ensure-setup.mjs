#!/usr/bin/env node
// Runs scripts/setup.sh when the set-up has not run on this clone, or when its inputs changed since
// (dependencies in package.json or the lockfile, the schema, the set-up steps). `--stamp` records the current inputs.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { depsHash } from './deps-hash.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = path.join(root, '.setup-done');

function inputsHash() {
  // package.json counts only through its dependency fields (depsHash), so editing a script does not
  // send every `quin` and `npm start` through the set-up again.
  const files = ['prisma/schema.prisma', 'scripts/setup.sh'];
  const stepsDir = path.join(root, 'scripts/setup.d');
  for (const f of fs.readdirSync(stepsDir).sort()) files.push(`scripts/setup.d/${f}`);
  const h = crypto.createHash('sha256').update(depsHash(root));
  for (const f of files) {
    const p = path.join(root, f);
    h.update(f).update(fs.existsSync(p) ? fs.readFileSync(p) : '');
  }
  return h.digest('hex');
}

if (process.argv.includes('--stamp')) {
  fs.writeFileSync(stampFile, inputsHash() + '\n');
} else {
  const current = fs.existsSync(stampFile) ? fs.readFileSync(stampFile, 'utf8').trim() : '';
  if (current !== inputsHash()) {
    process.stderr.write('set-up needed (fresh clone or changed dependencies): running scripts/setup.sh\n');
    const r = spawnSync('bash', [path.join(root, 'scripts/setup.sh')], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
