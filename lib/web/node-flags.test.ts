import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { WEB_OLD_SPACE_MB, webNodeFlags } from './node-flags';

describe('the web server’s Node flags', () => {
  it('limit the old space unless the operator or the command line sizes the heap', () => {
    expect(webNodeFlags({})).toEqual([`--max-old-space-size=${WEB_OLD_SPACE_MB}`]);
    expect(webNodeFlags({ NODE_OPTIONS: '--enable-source-maps' })).toEqual([`--max-old-space-size=${WEB_OLD_SPACE_MB}`]);
    expect(webNodeFlags({ NODE_OPTIONS: '--max-old-space-size=4096' })).toEqual([]);
    expect(webNodeFlags({ NODE_OPTIONS: '--max_old_space_size=512 --trace-gc' })).toEqual([]);
    expect(webNodeFlags({}, ['--max-heap-size=3000'])).toEqual([]);
  });

  it('are flags Node accepts, and set the heap limit they name', () => {
    const r = spawnSync(
      process.execPath,
      [...webNodeFlags({}), '-e', 'process.stdout.write(String(require("v8").getHeapStatistics().heap_size_limit))'],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(r.status, r.stderr).toBe(0);
    const limitMB = Number(r.stdout) / 2 ** 20;
    // The old space as asked, plus the young generation V8 adds to the limit it reports.
    expect(limitMB).toBeGreaterThanOrEqual(WEB_OLD_SPACE_MB);
    expect(limitMB).toBeLessThan(WEB_OLD_SPACE_MB + 128);
  });
});
