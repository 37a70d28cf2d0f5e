import { afterEach, describe, expect, it, vi } from 'vitest';
import { createError } from '../errors';
import { recordingLogger } from '../../testing/log';
import { errorResponse } from './http';
import { Gate } from './load-shed';
import { processMetrics } from './metrics';
import { searchShed, ShedLog } from './shed-log';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Refusals as the gate makes them. */
async function refusals(n: number): Promise<string[]> {
  const gate = new Gate(1, 0, 1000);
  let release!: () => void;
  const busy = gate.run(() => new Promise<void>((r) => (release = r)));
  const reasons: string[] = [];
  for (let i = 0; i < n; i++) await gate.run(async () => undefined).catch((e: Error) => reasons.push(e.message));
  release();
  await busy;
  return reasons;
}

describe('refused searches in the log', () => {
  it('a busy spell is one line at once, then one line per interval with the count, at warn and without a stack', async () => {
    vi.useFakeTimers();
    const { log, lines } = recordingLogger();
    const shed = new ShedLog(log, 60_000);
    const reasons = await refusals(1000);
    expect(reasons).toHaveLength(1000);
    for (const r of reasons.slice(0, 600)) shed.note(r);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', fields: { refused: 1, reason: expect.stringMatching(/^the service is busy/) } });
    vi.advanceTimersByTime(30_000);
    for (const r of reasons.slice(600)) shed.note(r);
    expect(lines).toHaveLength(1);
    vi.advanceTimersByTime(30_000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      level: 'warn',
      msg: expect.stringContaining('999 searches refused in the last 60 s'),
      fields: { refused: 999 },
    });
    // The spell is over: no more lines, and the next refusal is said at once again.
    vi.advanceTimersByTime(600_000);
    expect(lines).toHaveLength(2);
    shed.note('again');
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => JSON.stringify(l)).join('\n')).not.toMatch(/stack|\n\s+at /);
    expect(lines.every((l) => JSON.stringify(l).length < 300)).toBe(true);
  });

  it('a refusal is counted in /metrics, and its 503 response logs nothing more', async () => {
    const before = await shedCount();
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const [reason] = await refusals(1);
    for (let i = 0; i < 50; i++) {
      searchShed(reason!);
      const res = errorResponse(createError('OVERLOADED', reason!, { retryAfterSeconds: 3 }));
      expect(res.status).toBe(503);
    }
    expect(await shedCount()).toBe(before + 50);
    expect(written.filter((w) => /refused/.test(w))).toHaveLength(1);
    expect(written.filter((w) => /request failed|"level":"error"|ERROR/.test(w))).toEqual([]);
    // An unexpected error is still logged, with its stack.
    errorResponse(new Error('boom'));
    expect(written.filter((w) => /request failed/.test(w) && /boom/.test(w))).toHaveLength(1);
  });
});

async function shedCount(): Promise<number> {
  const metric = await processMetrics().searches.get();
  return metric.values.find((v) => v.labels.outcome === 'shed')?.value ?? 0;
}
