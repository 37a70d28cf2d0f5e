/**
 * Runs the real `quin` command line in a child process, as a user would: `node bin/quin.mjs …`.
 * bin/quin.mjs first re-runs the set-up when its inputs changed (npm ci included). A test must never
 * set that off: it would reinstall node_modules under the running test runner. So when the set-up
 * stamp is stale (someone changed package.json in a working tree), the same CLI code is started
 * through tsx without the set-up step. The stamp rule is scripts/setup-stamp.mjs, the one
 * scripts/ensure-setup.mjs uses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../lib/paths';
import { setupIsCurrent } from '../scripts/setup-stamp.mjs';

/** The argv that starts `quin` with these arguments. */
export function quinArgv(args: string[]): string[] {
  const root = projectRoot();
  if (setupIsCurrent(root)) return [path.join(root, 'bin', 'quin.mjs'), ...args];
  return tunedQuinArgv(args);
}

/**
 * The argv that starts the same CLI code through testing/quin-entry.ts, which alone reads
 * QUIN_TEST_TUNING: for a test that varies code constants in the child (batch sizes for failpoints).
 */
export function tunedQuinArgv(args: string[]): string[] {
  return ['--import', 'tsx', path.join(projectRoot(), 'testing', 'quin-entry.ts'), ...args];
}

export interface QuinRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `quin` to completion. Asynchronous on purpose: a test's HTTP server lives in the test process
 * and must keep answering the child (spawnSync would block it and deadlock).
 */
export function runQuin(args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<QuinRun> {
  const child = spawnQuin(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

export function spawnQuin(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, quinArgv(args), {
    cwd: projectRoot(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
