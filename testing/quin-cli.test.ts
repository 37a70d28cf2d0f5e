import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../lib/paths';
import { setupIsCurrent } from '../scripts/setup-stamp.mjs';
import { quinArgv } from './quin-cli';

describe('the CLI tests run the real binary', () => {
  it('after the set-up (the stamp scripts/ensure-setup.mjs writes), `quin` is bin/quin.mjs, not the tsx fallback', () => {
    // A stale stamp means package.json or the set-up changed since scripts/setup.sh last ran: run it.
    expect(setupIsCurrent(projectRoot())).toBe(true);
    expect(quinArgv(['stats'])).toEqual([path.join(projectRoot(), 'bin', 'quin.mjs'), 'stats']);
  });
});
