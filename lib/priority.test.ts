import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('lowerPriority', () => {
  it('lowers a process to the indexer priority, and threads it starts afterwards inherit it', () => {
    // A child of its own: the test process keeps its priority.
    const script = `
      import os from 'node:os';
      import { Worker } from 'node:worker_threads';
      const { lowerPriority, INDEXER_NICE } = await import(${JSON.stringify(new URL('./priority.ts', import.meta.url).href)});
      const before = os.getPriority();
      const ok = lowerPriority();
      const w = new Worker("import os from 'node:os'; import { parentPort } from 'node:worker_threads'; parentPort.postMessage(os.getPriority(0));", { eval: true });
      const inThread = await new Promise((r) => w.once('message', r));
      await w.terminate();
      lowerPriority(1); // never raises it again
      console.log(JSON.stringify({ before, ok, after: os.getPriority(), inThread, nice: INDEXER_NICE }));
    `;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, number | boolean>;
    expect(out.ok).toBe(true);
    expect(out.after).toBe(Math.max(out.before as number, out.nice as number));
    expect(out.inThread).toBe(out.after);
  });
});
