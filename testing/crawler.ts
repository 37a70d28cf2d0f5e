/**
 * Crawler settings for tests: local servers allowed (they are on 127.0.0.1), no politeness delay,
 * short timeouts and a 1 MiB size cap so hostile cases finish in a second or two.
 */
import { spawn } from 'node:child_process';
import v8 from 'node:v8';
import vm from 'node:vm';
import { loadConfig, type Config, type LoadConfigOptions, type Tuning } from '../lib/config';

export const TEST_CRAWLER_OVERRIDES = {
  allowPrivateHosts: true,
  hostDelayMs: 0,
  fetchTimeoutMs: 1500,
  maxResponseBytes: 1024 * 1024,
  crawlConcurrency: 4,
  contactUrl: 'https://example.org/quin-tests',
} satisfies LoadConfigOptions['overrides'];

/** Connecting to 127.0.0.1 takes microseconds: a second is plenty, and a hole fails fast. */
export const TEST_CRAWLER_TUNING = { connectTimeoutMs: 1000 } satisfies Tuning;

export function testCrawlerConfig(overrides: LoadConfigOptions['overrides'] & { tuning?: Tuning } = {}): Config {
  const { tuning, ...settings } = overrides;
  return loadConfig({
    env: {},
    configFile: null,
    overrides: { ...TEST_CRAWLER_OVERRIDES, ...settings },
    tuning: { ...TEST_CRAWLER_TUNING, ...tuning },
  });
}

let gc: (() => void) | undefined;
/** A full garbage collection (exposed at run time, so no special Node flags are needed). */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose_gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
}

/** Bytes of memory the process holds after a full GC (heap plus buffers), for "memory stays bounded" checks. */
export function memoryInUse(): number {
  collectGarbage();
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

/**
 * A TCP port that never completes a connection: a listener with a zero backlog whose one queue slot
 * is taken, so the kernel drops further SYNs (a real "connect timeout"). Needs python3 (Node always
 * accepts); resolves to null without it.
 */
export async function startBlackhole(): Promise<{ port: number; close(): void } | null> {
  const script =
    'import socket,time\ns=socket.socket();s.bind(("127.0.0.1",0));s.listen(0)\nc=socket.create_connection(("127.0.0.1",s.getsockname()[1]))\nprint(s.getsockname()[1],flush=True)\ntime.sleep(120)';
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn('python3', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      return resolve(null);
    }
    child.on('error', () => resolve(null));
    child.stdout!.once('data', (d: Buffer) => resolve({ port: Number(d.toString().trim()), close: () => child.kill('SIGKILL') }));
  });
}
