import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The repository root (the folder holding package.json), wherever the code is run from. */
export function projectRoot(): string {
  if (root) return root;
  if (process.env.QUIN_ROOT) return (root = path.resolve(process.env.QUIN_ROOT));
  // Next.js bundles server code into .next/, so walk up from both this file and the cwd.
  const starts = [path.dirname(fileURLToPath(import.meta.url)), process.cwd()];
  for (const start of starts) {
    let dir = start;
    for (;;) {
      if (fs.existsSync(path.join(dir, 'prisma', 'schema.prisma')) && fs.existsSync(path.join(dir, 'package.json'))) return (root = dir);
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  throw new Error('cannot find the project root (set QUIN_ROOT)');
}

/** Path to the shared data folder (../shared/data beside the project), overridable by QUIN_SHARED_DATA. */
export function sharedDataDir(): string {
  return process.env.QUIN_SHARED_DATA ? path.resolve(process.env.QUIN_SHARED_DATA) : path.resolve(projectRoot(), '..', 'shared', 'data');
}
