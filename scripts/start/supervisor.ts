/**
 * Keeps the service's child processes running (scripts/start.mjs): a child that exits while the
 * service is up is started again after a backoff (1 s doubling to 60 s, back to 1 s once it has run
 * for a minute), and the others keep going — except an exit with one of the child's `fatalExitCodes`
 * (the web server's port is taken): restarting cannot help, so `onFatal` is told and nothing restarts.
 *
 * Each child leads its own process group (with whatever it starts itself: the worker's indexing
 * process), so that a terminal's Ctrl-C reaches only the supervisor, which then stops the children in
 * order, and so that a child's whole group can be stopped. `stop()` sends SIGTERM to every child,
 * waits for them, SIGKILLs the groups of those left after the grace period, and returns only when no
 * process of any child's group is left.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

export interface ChildSpec {
  name: string;
  /** A Node module, forked with an IPC channel (the child can send messages and sees the parent go). */
  module?: string;
  /** Or a command, spawned. */
  command?: string;
  args?: string[];
  /** Node flags of a forked module (default none: not the parent's). */
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
  onMessage?: (msg: unknown) => void;
  /** Default inherit; tests capture or ignore output. */
  stdio?: 'inherit' | 'ignore';
  /** Exit codes after which restarting cannot help (the child said why before it exited). */
  fatalExitCodes?: number[];
}

interface ChildState {
  spec: ChildSpec;
  proc: ChildProcess | null;
  /** The child's process group (its pid), kept after it exits until the group is empty. */
  group: number | null;
  delay: number;
  startedAt: number;
  restarts: number;
  timer: NodeJS.Timeout | null;
  exited: Promise<void>;
}

export interface SupervisorOptions {
  log?: (line: string) => void;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** A child that ran this long gets the initial delay again. */
  healthyAfterMs?: number;
  /** A child exited with one of its fatalExitCodes: it is not restarted. */
  onFatal?: (name: string, code: number) => void;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The live processes of a process group (zombies left out: a container's init may be slow to reap
 * them). Read from /proc; where there is none, `kill(-pgid, 0)` answers (zombies included).
 */
export function groupMembers(pgid: number): number[] {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM' ? [pgid] : [];
    }
  }
  const out: number[] = [];
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') out.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const groupAlive = (pgid: number) => groupMembers(pgid).length > 0;

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

export class Supervisor {
  private readonly children = new Map<string, ChildState>();
  private stopped = false;
  private readonly log: (line: string) => void;
  private readonly initialDelay: number;
  private readonly maxDelay: number;
  private readonly healthyAfter: number;
  private readonly onFatal?: (name: string, code: number) => void;

  constructor(opts: SupervisorOptions = {}) {
    this.log = opts.log ?? ((m) => process.stderr.write(m + '\n'));
    this.initialDelay = opts.initialDelayMs ?? 1000;
    this.maxDelay = opts.maxDelayMs ?? 60_000;
    this.healthyAfter = opts.healthyAfterMs ?? 60_000;
    this.onFatal = opts.onFatal;
  }

  get stopping(): boolean {
    return this.stopped;
  }

  add(spec: ChildSpec): void {
    const state: ChildState = {
      spec,
      proc: null,
      group: null,
      delay: this.initialDelay,
      startedAt: 0,
      restarts: 0,
      timer: null,
      exited: Promise.resolve(),
    };
    this.children.set(spec.name, state);
    this.start(state);
  }

  pid(name: string): number | null {
    return this.children.get(name)?.proc?.pid ?? null;
  }

  restarts(name: string): number {
    return this.children.get(name)?.restarts ?? 0;
  }

  private start(state: ChildState): void {
    const { spec } = state;
    const out = spec.stdio ?? 'inherit';
    // detached: the child leads a process group of its own (see the header).
    const proc = spec.module
      ? fork(spec.module, spec.args ?? [], {
          env: spec.env ?? process.env,
          stdio: [out, out, out, 'ipc'],
          execArgv: spec.execArgv ?? [],
          detached: true,
        })
      : spawn(spec.command!, spec.args ?? [], { env: spec.env ?? process.env, stdio: ['ignore', out, out], detached: true });
    state.proc = proc;
    state.group = proc.pid ?? null;
    state.startedAt = Date.now();
    state.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    if (spec.onMessage) proc.on('message', spec.onMessage);
    // A message sent as the child goes fails with EPIPE; its exit is what counts.
    proc.on('error', () => undefined);
    proc.once('exit', (code, signal) => {
      state.proc = null;
      if (this.stopped) return;
      if (code !== null && spec.fatalExitCodes?.includes(code)) {
        this.log(`start: ${spec.name} exited (code ${code}); not restarting it`);
        this.onFatal?.(spec.name, code);
        return;
      }
      if (Date.now() - state.startedAt > this.healthyAfter) state.delay = this.initialDelay;
      state.restarts += 1;
      this.log(`start: ${spec.name} exited (${signal ?? `code ${code}`}); restarting in ${state.delay / 1000} s`);
      state.timer = setTimeout(() => {
        state.timer = null;
        if (!this.stopped) this.start(state);
      }, state.delay);
      state.delay = Math.min(this.maxDelay, state.delay * 2);
    });
  }

  /**
   * Stops every child: SIGTERM, then SIGKILL to the groups still there after `graceMs`. Resolves when
   * no process of any child's group is left (what a child started and left behind included).
   */
  async stop(graceMs = 30_000): Promise<void> {
    this.stopped = true;
    const waits: Promise<void>[] = [];
    for (const state of this.children.values()) {
      if (state.timer) clearTimeout(state.timer);
      if (!state.proc) continue;
      state.proc.kill('SIGTERM');
      waits.push(state.exited);
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all(waits), timeout]);
    clearTimeout(timer);
    const left = [...this.children.values()].filter((s) => s.proc);
    for (const state of left) {
      this.log(`start: ${state.spec.name} did not stop in time; killing it`);
      if (state.group) killGroup(state.group, 'SIGKILL');
      state.proc?.kill('SIGKILL');
    }
    await Promise.all(left.map((s) => s.exited));
    await this.reapGroups();
  }

  /** SIGKILL to every child's group at once (a second Ctrl-C). */
  kill(): void {
    this.stopped = true;
    for (const state of this.children.values()) {
      if (state.timer) clearTimeout(state.timer);
      if (state.group) killGroup(state.group, 'SIGKILL');
    }
  }

  /** What a child left behind in its group (it exited before its own children): SIGTERM, a moment, SIGKILL. */
  private async reapGroups(): Promise<void> {
    const groups = [...this.children.values()].flatMap((s) => (s.group && groupAlive(s.group) ? [s] : []));
    if (!groups.length) return;
    for (const s of groups) {
      this.log(`start: processes of ${s.spec.name} are still running; stopping them`);
      killGroup(s.group!, 'SIGTERM');
    }
    for (let t = 0; t < 50 && groups.some((s) => groupAlive(s.group!)); t++) await wait(100);
    for (const s of groups) if (groupAlive(s.group!)) killGroup(s.group!, 'SIGKILL');
    for (let t = 0; t < 50 && groups.some((s) => groupAlive(s.group!)); t++) await wait(100);
  }
}
