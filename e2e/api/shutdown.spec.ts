/**
 * `npm start` as a process manager runs it: one SIGTERM to the npm process (systemd, Docker and
 * friends signal the process they started, not its children) stops the whole tree — the web server
 * and the worker — cleanly. A second instance on its own port and data dir; the build is the one the
 * global set-up made.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '../support/fixtures';
import { freePort } from '../support/server';
import { ROOT } from '../support/state';

/** Every process below `pid` (children, grandchildren, …), from ps. */
function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of rows) {
      if (parent === p) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('SIGTERM to the `npm start` process stops the web server and the worker, and frees the port', async () => {
  test.setTimeout(240_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-e2e-sigterm-'));
  const port = await freePort();
  const log = path.join(ROOT, 'test-results', 'e2e-sigterm.log');
  const out = fs.openSync(log, 'w');
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      QUIN_DATA_DIR: dataDir,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      QUIN_SEED_FEEDS: 'false',
      QUIN_WORKER: 'true',
    },
    stdio: ['ignore', out, out],
  });
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exit = new Promise<void>((resolve) =>
    npm.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    }),
  );
  try {
    // Up: the web server answers (liveness) and the worker process runs.
    await expect
      .poll(
        async () => {
          if (exited) throw new Error(`npm start exited early (${JSON.stringify(exited)}); see ${log}`);
          const r = await fetch(`http://127.0.0.1:${port}/api/health?probe=live`).catch(() => null);
          return r?.status ?? 0;
        },
        { timeout: 180_000, intervals: [1000] },
      )
      .toBe(200);
    const tree = descendants(npm.pid!);
    const commands = execFileSync('ps', ['-o', 'args=', '-p', tree.join(',')], { encoding: 'utf8' });
    expect(commands).toContain('web-server.mjs');
    expect(commands).toContain('worker.mjs');

    npm.kill('SIGTERM');
    await Promise.race([exit, new Promise((r) => setTimeout(r, 30_000))]);
    expect(exited, 'npm itself ended').not.toBeNull();
    await expect.poll(() => tree.filter(alive), { timeout: 30_000 }).toEqual([]);
    expect(
      await fetch(`http://127.0.0.1:${port}/api/health?probe=live`).then(
        () => 'answering',
        () => 'closed',
      ),
    ).toBe('closed');
    expect(fs.readFileSync(log, 'utf8')).toContain('start: stopped');
  } finally {
    for (const pid of [npm.pid!, ...descendants(npm.pid!)]) if (alive(pid)) process.kill(pid, 'SIGKILL');
    fs.closeSync(out);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
