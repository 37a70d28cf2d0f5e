/**
 * Starting and stopping as people and process managers do, with real processes:
 * - SIGTERM to the npm process (systemd, Docker and friends signal the process they started) and a
 *   terminal's Ctrl-C (SIGINT to the whole foreground process group: npm and the node it runs) stop
 *   `npm start` and `npm run demo` entirely — web server, worker, indexing process — with
 *   "start: stopped" as the last line, no stack trace (EPIPE), the port free, and the indexes
 *   matching the database (`quin index --verify`), also when the stop comes while the worker indexes;
 * - a busy port ends either command at once with one message and a non-zero exit, no restart loop.
 * Each run has its own port and data dir; the build is the one the global set-up made. The demo
 * imports a few BBC articles (a small QUIN_SHARED_DATA) with the static encoder.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '../support/fixtures';
import { freePort } from '../support/server';
import { sharedData } from '../support/seed';
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

/** Alive and not a zombie waiting for its (new) parent to reap it. */
const alive = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
};

/** A shared-data folder holding only a few BBC technology articles (the demo skips what is missing). */
function smallSharedData(): string | null {
  const tech = sharedData('news', 'bbc', 'tech');
  if (!tech) return null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-e2e-shared-'));
  const out = path.join(dir, 'news', 'bbc', 'tech');
  fs.mkdirSync(out, { recursive: true });
  for (const f of fs.readdirSync(tech).sort().slice(0, 40)) fs.copyFileSync(path.join(tech, f), path.join(out, f));
  return dir;
}

function env(dataDir: string, port: number, shared: string | null): NodeJS.ProcessEnv {
  return {
    ...process.env,
    QUIN_DATA_DIR: dataDir,
    DATABASE_URL: '',
    PORT: String(port),
    HOST: '127.0.0.1',
    QUIN_SEED_FEEDS: 'false',
    QUIN_WORKER: 'true',
    QUIN_WORKER_POLL_SECONDS: '1',
    QUIN_ENCODER: 'static',
    QUIN_NLI_MODEL: 'none',
    QUIN_RERANKER_MODEL: 'none',
    ...(shared ? { QUIN_SHARED_DATA: shared } : {}),
  };
}

function verify(e: NodeJS.ProcessEnv): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/quin.mjs'), 'index', '--verify'], { cwd: ROOT, env: e, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** Articles that give the worker's indexing process a pass to run when the stop comes. */
function importBacklog(e: NodeJS.ProcessEnv, dir: string, n: number): void {
  const file = path.join(dir, 'backlog.jsonl');
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      id: `backlog-${i}`,
      title: `Harbour council meeting ${i}`,
      text: Array.from(
        { length: 12 },
        (_, j) => `The harbour council met for session ${i} and discussed item ${j} of the repair plan for the old pier.`,
      ).join(' '),
      url: `https://backlog.example/${i}`,
      published: new Date(Date.now() - i * 60_000).toISOString(),
      source: 'Backlog Gazette',
    }),
  );
  fs.writeFileSync(file, lines.join('\n') + '\n');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/quin.mjs'), 'import', 'jsonl', file], {
    cwd: ROOT,
    env: e,
    encoding: 'utf8',
  });
  expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
}

const SCENARIOS: { command: 'start' | 'demo'; stop: 'SIGTERM' | 'Ctrl-C'; busy: boolean }[] = [
  { command: 'start', stop: 'SIGTERM', busy: false },
  { command: 'start', stop: 'Ctrl-C', busy: true },
  { command: 'demo', stop: 'SIGTERM', busy: true },
  { command: 'demo', stop: 'Ctrl-C', busy: false },
];

test.describe('stopping npm start and npm run demo', () => {
  test.describe.configure({ timeout: 300_000 });

  for (const { command, stop, busy } of SCENARIOS) {
    test(`${stop} to \`npm ${command === 'start' ? 'start' : 'run demo'}\`${busy ? ' while the worker indexes' : ''}: every process ends, "stopped" last, --verify clean`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-e2e-stop-'));
      const shared = command === 'demo' ? smallSharedData() : null;
      test.skip(command === 'demo' && !shared, 'no shared data (../shared/data/news/bbc)');
      const port = await freePort();
      const e = env(dataDir, port, shared);
      const log = path.join(ROOT, 'test-results', `e2e-stop-${command}-${stop}.log`);
      const out = fs.openSync(log, 'w');
      // Its own process group, as a terminal gives the command it runs: "Ctrl-C" signals the group.
      const npm = spawn('npm', command === 'start' ? ['start'] : ['run', 'demo'], {
        cwd: ROOT,
        env: e,
        stdio: ['ignore', out, out],
        detached: true,
      });
      let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
      const exit = new Promise<void>((resolve) =>
        npm.once('exit', (code, signal) => {
          exited = { code, signal };
          resolve();
        }),
      );
      try {
        await expect
          .poll(
            async () => {
              if (exited) throw new Error(`npm exited early (${JSON.stringify(exited)}); see ${log}`);
              const r = await fetch(`http://127.0.0.1:${port}/api/health?probe=live`).catch(() => null);
              return r?.status ?? 0;
            },
            { timeout: 240_000, intervals: [1000] },
          )
          .toBe(200);
        if (command === 'start' && stop === 'SIGTERM') {
          // The generated admin password was printed when made, and is kept until the first sign-in.
          const file = path.join(dataDir, 'secrets', 'initial-admin-password');
          const password = fs.readFileSync(file, 'utf8').trim();
          const printed = fs.readFileSync(log, 'utf8');
          expect(printed).toContain(`for user "admin":   ${password}`);
          expect(printed.indexOf(password)).toBeLessThan(printed.indexOf('Quin news is running at'));
          const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ user: 'admin', password }),
          });
          expect(login.status).toBe(200);
          expect(fs.existsSync(file)).toBe(false);
        }
        const tree = () => descendants(npm.pid!);
        await expect
          .poll(() => execFileSync('ps', ['-o', 'args=', '-p', tree().join(',')], { encoding: 'utf8' }), { timeout: 60_000 })
          .toContain('--index-child');
        if (busy) {
          // A backlog of about a thousand snippets, and the stop as soon as the worker's pass over it has begun:
          // the pass is given its 10 s to finish, so the indexes end complete.
          const passes = () => (fs.readFileSync(log, 'utf8').match(/"scope":"index","snippets"/g) ?? []).length;
          const before = passes();
          importBacklog(e, dataDir, 300);
          await expect.poll(passes, { timeout: 60_000, intervals: [100] }).toBeGreaterThan(before);
        }
        const before = tree();
        expect(before.length).toBeGreaterThanOrEqual(3); // node, web server, worker, indexing process

        if (stop === 'SIGTERM') npm.kill('SIGTERM');
        else process.kill(-npm.pid!, 'SIGINT');
        await Promise.race([exit, new Promise((r) => setTimeout(r, 60_000))]);
        expect(exited, 'npm itself ended').not.toBeNull();
        await expect.poll(() => before.filter(alive), { timeout: 30_000 }).toEqual([]);
        expect(
          await fetch(`http://127.0.0.1:${port}/api/health?probe=live`).then(
            () => 'answering',
            () => 'closed',
          ),
        ).toBe('closed');
        const text = fs.readFileSync(log, 'utf8');
        const lines = text.trim().split('\n');
        expect(lines.at(-1)).toBe('start: stopped');
        expect(text).not.toMatch(/EPIPE|ERR_IPC|Unhandled|^\s+at .+:\d+:\d+\)?$/m);
        expect(text).not.toContain('did not stop in time');
        const v = verify(e);
        expect(v.status, v.output).toBe(0);
      } finally {
        for (const pid of [npm.pid!, ...descendants(npm.pid!)]) if (alive(pid)) process.kill(pid, 'SIGKILL');
        fs.closeSync(out);
        fs.rmSync(dataDir, { recursive: true, force: true });
        if (shared) fs.rmSync(shared, { recursive: true, force: true });
      }
    });
  }
});

test.describe('a busy port', () => {
  test.describe.configure({ timeout: 120_000 });

  for (const command of ['start', 'demo'] as const) {
    test(`\`npm ${command === 'start' ? 'start' : 'run demo'}\` says who holds it and what to set, and exits non-zero at once`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-e2e-busy-'));
      const holder = net.createServer();
      await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
      const { port } = holder.address() as net.AddressInfo;
      try {
        const t0 = Date.now();
        const r = spawnSync('npm', command === 'start' ? ['start'] : ['run', 'demo'], {
          cwd: ROOT,
          env: env(dataDir, port, '/nonexistent'),
          encoding: 'utf8',
          timeout: 60_000,
        });
        const output = `${r.stdout}${r.stderr}`;
        expect(r.status, output).toBe(1);
        expect(Date.now() - t0).toBeLessThan(30_000);
        const how = command === 'start' ? 'npm start' : 'npm run demo';
        expect(output).toContain(`port ${port} is in use (by pid ${process.pid}: `);
        expect(output).toContain(`set PORT to a free port (e.g. PORT=${port + 1} ${how})`);
        expect(output).not.toContain('restarting');
        // Nothing was set up for a start that could not listen.
        expect(fs.existsSync(path.join(dataDir, 'quin.db'))).toBe(false);
      } finally {
        await new Promise<void>((r) => holder.close(() => r()));
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
