// Keeps child processes running: a child that exits while the service is up is started again after a
// backoff (1 s doubling to 60 s, back to 1 s once it has run for a minute). Stopping sends SIGTERM to
// every child, waits for them, and SIGKILLs what is left after a grace period.
import { fork, spawn } from 'node:child_process';

export class Supervisor {
  #children = new Map();
  #stopping = false;
  #log;

  constructor(log = (m) => process.stderr.write(m + '\n')) {
    this.#log = log;
  }

  get stopping() {
    return this.#stopping;
  }

  /**
   * spec: { name, module?: path (forked, with IPC) | command + args (spawned), env, onMessage(msg) }
   */
  add(spec) {
    const state = { spec, proc: null, delay: 1000, startedAt: 0, restarts: 0, timer: null, exited: null };
    this.#children.set(spec.name, state);
    this.#start(state);
    return state;
  }

  #start(state) {
    const { spec } = state;
    const opts = { env: spec.env ?? process.env, stdio: spec.module ? ['ignore', 'inherit', 'inherit', 'ipc'] : ['ignore', 'inherit', 'inherit'] };
    const proc = spec.module ? fork(spec.module, spec.args ?? [], { ...opts, execArgv: [] }) : spawn(spec.command, spec.args ?? [], opts);
    state.proc = proc;
    state.startedAt = Date.now();
    state.exited = new Promise((resolve) => proc.once('exit', resolve));
    if (spec.onMessage) proc.on('message', spec.onMessage);
    proc.once('exit', (code, signal) => {
      state.proc = null;
      if (this.#stopping) return;
      const ranFor = Date.now() - state.startedAt;
      if (ranFor > 60_000) state.delay = 1000;
      state.restarts += 1;
      this.#log(`start: ${spec.name} exited (${signal ?? `code ${code}`}); restarting in ${state.delay / 1000} s`);
      state.timer = setTimeout(() => {
        state.timer = null;
        if (!this.#stopping) this.#start(state);
      }, state.delay);
      state.delay = Math.min(60_000, state.delay * 2);
    });
  }

  pid(name) {
    return this.#children.get(name)?.proc?.pid ?? null;
  }

  restarts(name) {
    return this.#children.get(name)?.restarts ?? 0;
  }

  async stop(graceMs = 15_000) {
    this.#stopping = true;
    const waits = [];
    for (const state of this.#children.values()) {
      if (state.timer) clearTimeout(state.timer);
      if (!state.proc) continue;
      state.proc.kill('SIGTERM');
      waits.push(state.exited);
    }
    const timeout = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.all(waits), timeout]);
    for (const state of this.#children.values()) {
      if (state.proc) {
        this.#log(`start: ${state.spec.name} did not stop in time; killing it`);
        state.proc.kill('SIGKILL');
      }
    }
  }
}
