// The Elasticsearch node of a test run (scripts/test.mjs): started once with scripts/es-node.sh for
// every suite (QUIN_TEST_ES_URL), stopped at the end. When it cannot start (no Java 21+, no Maven,
// no way to Maven Central the first time), the run counts a failure with the reason, and every
// Elasticsearch test file fails with it too (QUIN_TEST_ES_ERROR, read by testing/es.ts): never a
// silent skip.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function elasticsearchForTests(root, dir = path.join(os.tmpdir(), `quin-test-es-${process.pid}`)) {
  const script = path.join(root, 'scripts/es-node.sh');
  let started = false;
  return {
    /** { env, line, failed }: the environment for the suites and one line for the summary. */
    start() {
      started = true;
      const r = spawnSync('bash', [script, 'start', dir], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const url = r.stdout.trim().split('\n').pop() ?? '';
      if (r.status === 0 && url.startsWith('http'))
        return { env: { QUIN_TEST_ES_URL: url }, line: `elasticsearch: a node at ${url}`, failed: false };
      const why = (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ') || `scripts/es-node.sh exited with ${r.status}`;
      return { env: { QUIN_TEST_ES_ERROR: why }, line: `elasticsearch: could not start a node: ${why}`, failed: true };
    },
    stop() {
      if (!started) return;
      started = false;
      spawnSync('bash', [script, 'stop', dir], { cwd: root, stdio: 'inherit' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
