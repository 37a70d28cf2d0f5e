#!/usr/bin/env node
// Prints a hash of what decides the installed dependencies: package.json's dependency fields and the
// lockfile. Scripts, descriptions and other fields are left out, so editing an npm script never
// triggers a reinstall.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function depsHash(root) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const fields = ['dependencies', 'devDependencies', 'optionalDependencies', 'overrides', 'engines'];
  const h = crypto.createHash('sha256').update(JSON.stringify(fields.map((f) => pkg[f] ?? null)));
  const lock = path.join(root, 'package-lock.json');
  if (fs.existsSync(lock)) {
    // The lockfile's own "version"/"name" lines change with package.json edits; hash its packages only.
    const l = JSON.parse(fs.readFileSync(lock, 'utf8'));
    h.update(JSON.stringify(l.packages ?? {}));
  }
  return h.digest('hex').slice(0, 16);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(depsHash(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')) + '\n');
}
