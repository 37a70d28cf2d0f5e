/**
 * Keeps the service's child processes running (scripts/start.mjs): a child that exits while the
 * service is up is started again after a backoff (1 s doubling to 60 s, back to 1 s once it has run
 * for a minute), and the others keep going. `stop()` sends SIGTERM to every child, waits for them, and
 * SIGKILLs what is left after a grace period.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';

export interface ChildSpec {
  name: string;
  /** A Node module, forked with an IPC channel (the child can send messages and sees the parent go). */
  module?: string;
  /** Or a command, spawned. */
  command?: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
  onMessage?: (msg: unknown) => void;
  /** Default inherit; tests capture or ignore output. */
  stdio?: 'inherit' | 'ignore';
}

interface ChildState {
  spec: ChildSpec;
  proc: ChildProcess | null;
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
}

export class Supervisor {
  private readonly children = new Map<string, ChildState>();
  private stopped = false;
  private readonly log: (line: string) => void;
  private readonly initialDelay: number;
  private readonly maxDelay: number;
  private readonly healthyAfter: number;

  constructor(opts: SupervisorOptions = {}) {
    this.log = opts.log ?? ((m) => process.stderr.write(m + '\n'));
    this.initialDelay = opts.initialDelayMs ?? 1000;
    this.maxDelay = opts.maxDelayMs ?? 60_000;
    this.healthyAfter = opts.healthyAfterMs ?? 60_000;
  }

  get stopping(): boolean {
    return this.stopped;
  }

  add(spec: ChildSpec): void {
    const state: ChildState = {
      spec,
      proc: null,
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
    const proc = spec.module
      ? fork(spec.module, spec.args ?? [], { env: spec.env ?? process.env, stdio: [out, out, out, 'ipc'], execArgv: [] })
      : spawn(spec.command!, spec.args ?? [], { env: spec.env ?? process.env, stdio: ['ignore', out, out] });
    state.proc = proc;
    state.startedAt = Date.now();
    state.exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    if (spec.onMessage) proc.on('message', spec.onMessage);
    proc.once('exit', (code, signal) => {
      state.proc = null;
      if (this.stopped) return;
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

  async stop(graceMs = 15_000): Promise<void> {
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
      state.proc!.kill('SIGKILL');
    }
    await Promise.all(left.map((s) => s.exited));
  }
}
