/** The supervisor with real child processes: restart with backoff, independence, clean and forced stops. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { groupMembers, Supervisor } from './supervisor';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-supervisor-'));
function script(name: string, code: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, code);
  return file;
}
const alive = (pid: number | null) => {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

let sup: Supervisor | undefined;
afterEach(async () => {
  await sup?.stop(2000);
  sup = undefined;
});

describe('Supervisor', () => {
  it('restarts a child that dies, with a growing delay, while the other keeps running', async () => {
    const lines: string[] = [];
    sup = new Supervisor({ log: (l) => lines.push(l), initialDelayMs: 100, maxDelayMs: 400 });
    const crashing = script('crash.cjs', 'setTimeout(() => process.exit(3), 50);');
    const steady = script('steady.cjs', 'setInterval(() => {}, 1000); process.on("SIGTERM", () => process.exit(0));');
    sup.add({ name: 'worker', module: crashing, stdio: 'ignore' });
    sup.add({ name: 'web', module: steady, stdio: 'ignore' });
    const webPid = sup.pid('web');
    // Polled, not a fixed sleep: each restart costs a Node start-up, slow on a loaded machine.
    for (const deadline = Date.now() + 20_000; sup.restarts('worker') < 4 && Date.now() < deadline;) await wait(50);
    expect(sup.restarts('worker')).toBeGreaterThanOrEqual(4);
    expect(lines[0]).toBe('start: worker exited (code 3); restarting in 0.1 s');
    expect(lines[1]).toBe('start: worker exited (code 3); restarting in 0.2 s');
    expect(lines.some((l) => l.includes('restarting in 0.4 s'))).toBe(true);
    expect(lines.some((l) => l.includes('restarting in 0.8 s'))).toBe(false); // capped
    expect(sup.pid('web')).toBe(webPid);
    expect(sup.restarts('web')).toBe(0);
  });

  it("starts a module with the Node flags of its spec, not the parent's", async () => {
    sup = new Supervisor({ log: () => undefined });
    const child = script(
      'flags.cjs',
      `process.send({ execArgv: process.execArgv, limit: require('v8').getHeapStatistics().heap_size_limit }); setInterval(() => {}, 1000); process.on('SIGTERM', () => process.exit(0));`,
    );
    const got: { name: string; execArgv: string[]; limit: number }[] = [];
    const seen = (name: string) => (m: unknown) => got.push({ name, ...(m as { execArgv: string[]; limit: number }) });
    sup.add({ name: 'sized', module: child, stdio: 'ignore', execArgv: ['--max-old-space-size=300'], onMessage: seen('sized') });
    sup.add({ name: 'plain', module: child, stdio: 'ignore', onMessage: seen('plain') });
    for (const deadline = Date.now() + 20_000; got.length < 2 && Date.now() < deadline;) await wait(50);
    const sized = got.find((g) => g.name === 'sized')!;
    const plain = got.find((g) => g.name === 'plain')!;
    expect(sized.execArgv).toEqual(['--max-old-space-size=300']);
    expect(sized.limit / 2 ** 20).toBeLessThan(400);
    expect(plain.execArgv).toEqual([]);
  });

  it('stops every child with SIGTERM and restarts nothing afterwards', async () => {
    sup = new Supervisor({ log: () => undefined, initialDelayMs: 50 });
    const marker = path.join(dir, 'terminated');
    const child = script(
      'term.cjs',
      `setInterval(() => {}, 1000); process.on('SIGTERM', () => { require('fs').writeFileSync(${JSON.stringify(marker)}, 'ok'); process.exit(0); }); process.send('ready');`,
    );
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    sup.add({ name: 'a', module: child, stdio: 'ignore', onMessage: () => ready() });
    await isReady;
    const pid = sup.pid('a');
    expect(alive(pid)).toBe(true);
    await sup.stop(5000);
    expect(fs.readFileSync(marker, 'utf8')).toBe('ok');
    expect(alive(pid)).toBe(false);
    await wait(200);
    expect(sup.pid('a')).toBeNull();
  });

  it('kills a child that ignores SIGTERM after the grace period', async () => {
    const lines: string[] = [];
    sup = new Supervisor({ log: (l) => lines.push(l) });
    const stubborn = script('stubborn.cjs', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000); process.send("ready");');
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    sup.add({ name: 'stubborn', module: stubborn, stdio: 'ignore', onMessage: () => ready() });
    await isReady; // its SIGTERM handler is installed
    const pid = sup.pid('stubborn');
    const t0 = Date.now();
    await sup.stop(500);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(lines).toContain('start: stubborn did not stop in time; killing it');
    expect(alive(pid)).toBe(false);
  });

  it('does not restart a child that exits with one of its fatal codes, and says so', async () => {
    const lines: string[] = [];
    const fatal: string[] = [];
    sup = new Supervisor({ log: (l) => lines.push(l), initialDelayMs: 50, onFatal: (name, code) => fatal.push(`${name}:${code}`) });
    sup.add({ name: 'web', module: script('busy.cjs', 'process.exit(98);'), stdio: 'ignore', fatalExitCodes: [98] });
    for (const deadline = Date.now() + 10_000; fatal.length === 0 && Date.now() < deadline;) await wait(50);
    await wait(300);
    expect(fatal).toEqual(['web:98']);
    expect(sup.restarts('web')).toBe(0);
    expect(lines).toEqual(['start: web exited (code 98); not restarting it']);
  });

  it('leaves no process of a child behind: what the child started and left running is stopped too', async () => {
    const lines: string[] = [];
    sup = new Supervisor({ log: (l) => lines.push(l) });
    // A parent that exits on SIGTERM at once, leaving its own child (which ignores SIGTERM) running.
    const grandchild = script('grandchild.cjs', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000);');
    const parent = script(
      'parent.cjs',
      `const c = require('child_process').spawn(process.execPath, [${JSON.stringify(grandchild)}], { stdio: 'ignore' });
       process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000);
       setTimeout(() => process.send({ grandchild: c.pid }), 300);`,
    );
    let gc = 0;
    const started = new Promise<void>((r) =>
      sup!.add({
        name: 'worker',
        module: parent,
        stdio: 'ignore',
        onMessage: (m) => ((gc = (m as { grandchild: number }).grandchild), r()),
      }),
    );
    await started;
    const pgid = sup.pid('worker')!;
    expect(groupMembers(pgid).sort()).toEqual([pgid, gc].sort());
    await sup.stop(2000);
    // (Gone, or a zombie its new parent has yet to reap: groupMembers leaves zombies out.)
    expect(groupMembers(pgid)).toEqual([]);
    expect(lines).toContain('start: processes of worker are still running; stopping them');
  });
});
