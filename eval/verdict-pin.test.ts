/**
 * The CI check of the verdict's numbers: the shipped stance model must reproduce the pinned
 * per-sentence numbers (eval/regressions/verdict/*.json) on our news claims' deciding sentences and,
 * where the shared data is here, on every Climate-FEVER pair. Alignment is exact arithmetic on fixed
 * inputs, so the numbers match to four decimals on any machine.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../lib/config';
import { sharedDataDir } from '../lib/paths';
import { createVerdictStage } from '../ranking/verdict';
import { checkPins, comparePin, loadPins, newsPairs } from './verdict-pin';

describe('verdict regression pins', () => {
  it('there is a pin per pair set, and a moved number or another model fails it', () => {
    const pins = loadPins();
    expect(pins.map((p) => p.pin.name)).toEqual(['climate-fever-pairs', 'news-deciding']);
    const { pin } = pins.find((p) => p.pin.name === 'news-deciding')!;
    expect(pin.n).toBe(newsPairs().length);
    expect(comparePin(pin, pin.model, { ...pin.expected, n: pin.n })).toEqual([]);
    expect(comparePin(pin, pin.model, { ...pin.expected, macro_f1: pin.expected.macro_f1 + 1e-4, n: pin.n })).toHaveLength(1);
    expect(comparePin(pin, 'another-model', { ...pin.expected, n: pin.n })[0]).toMatch(/pinned for stance model/);
  });

  it('the shipped stance model reproduces every pinned number', async () => {
    const stage = await createVerdictStage(loadConfig({ env: {}, configFile: null }));
    expect(stage).not.toBeNull();
    const checks = await checkPins(stage!, sharedDataDir());
    expect(checks.find((c) => c.name === 'news-deciding')?.diff).toEqual([]);
    const failed = checks.flatMap((c) => c.diff ?? []);
    expect(failed, failed.join('\n')).toEqual([]);
  }, 300_000);
});
