// The set-up stamp: a hash of what the set-up depends on (the dependency fields of package.json and
// the lockfile, the Prisma schema, the set-up steps). scripts/ensure-setup.mjs re-runs the set-up when
// it differs from the stamp written after the last run; the CLI tests (testing/quin-cli.ts) read the
// same rule to know whether bin/quin.mjs may be run as is. One rule, here.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { depsHash } from './deps-hash.mjs';

export const STAMP_FILE = '.setup-done';

export function setupInputsHash(root) {
  // package.json counts only through its dependency fields (depsHash), so editing a script does not
  // send every `quin` and `npm start` through the set-up again.
  const files = ['prisma/schema.prisma', 'scripts/setup.sh'];
  for (const f of fs.readdirSync(path.join(root, 'scripts/setup.d')).sort()) files.push(`scripts/setup.d/${f}`);
  const h = crypto.createHash('sha256').update(depsHash(root));
  for (const f of files) {
    const p = path.join(root, f);
    h.update(f).update(fs.existsSync(p) ? fs.readFileSync(p) : '');
  }
  return h.digest('hex');
}

/** Whether the set-up ran for the current inputs. */
export function setupIsCurrent(root) {
  const stamp = path.join(root, STAMP_FILE);
  return fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === setupInputsHash(root);
}
