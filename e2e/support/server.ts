/** The product as `npm start` runs it (scripts/start.mjs: build when needed, web server, worker), on a free port. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from './state';

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

export interface RunningServer {
  proc: ChildProcess;
  baseURL: string;
  stop(): Promise<void>;
}

/**
 * Starts it and waits until it is ready (/api/health 200), or only live (`until: 'live'`: a server
 * that is up but not ready, e.g. with its Elasticsearch unreachable).
 */
export async function startServer(
  env: NodeJS.ProcessEnv,
  logFile: string,
  timeoutMs: number,
  opts: { until?: 'ready' | 'live' } = {},
): Promise<RunningServer> {
  const out = fs.openSync(logFile, 'a');
  const proc = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], { cwd: ROOT, env, stdio: ['ignore', out, out] });
  const baseURL = `http://127.0.0.1:${env.PORT}`;
  let exited: number | null = null;
  proc.once('exit', (code) => (exited = code ?? -1));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== null) throw new Error(`the server exited (code ${exited}) before it was ready; see ${logFile}`);
    if (Date.now() > deadline) {
      proc.kill('SIGTERM');
      throw new Error(`the server was not ready within ${timeoutMs / 1000} s; see ${logFile}`);
    }
    try {
      const r = await fetch(`${baseURL}/api/health${opts.until === 'live' ? '?probe=live' : ''}`, { signal: AbortSignal.timeout(5000) });
      if (r.status === 200) break;
    } catch {
      // not listening yet (building, starting)
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  return {
    proc,
    baseURL,
    async stop() {
      if (exited !== null) return;
      const done = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      await done;
      clearTimeout(timer);
      fs.closeSync(out);
    },
  };
}
