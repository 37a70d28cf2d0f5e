import fs from 'node:fs';
import path from 'node:path';
import { sharedDataDir } from '../lib/paths';

/** Path under ../shared/data, or undefined when the shared folder is absent (tests then skip, saying why). */
export function sharedData(...parts: string[]): string | undefined {
  const p = path.join(sharedDataDir(), ...parts);
  return fs.existsSync(p) ? p : undefined;
}

export const SHARED_MISSING = `shared data not found at ${sharedDataDir()} (set QUIN_SHARED_DATA)`;
