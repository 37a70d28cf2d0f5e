import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, RETIRED_SETTINGS, SETTINGS } from './config';
import { isQuinError } from './errors';

function problem(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isQuinError(e) && e.code === 'CONFIG_INVALID') return e.message;
    throw e;
  }
  throw new Error('no CONFIG_INVALID error');
}

describe('configuration', () => {
  it('keeps the operator settings to forty (every other value is a constant with its reason)', () => {
    expect(Object.keys(SETTINGS).length).toBeLessThanOrEqual(40);
    for (const r of Object.values(RETIRED_SETTINGS)) expect(SETTINGS).not.toHaveProperty(r.key);
  });

  it('stops at start on a retired setting in the environment, saying what replaced it', () => {
    const msg = problem(() => loadConfig({ env: { QUIN_SESSION_HOURS: '1', QUIN_USER_AGENT: 'Bot/1' }, configFile: null }));
    expect(msg).toMatch(/QUIN_SESSION_HOURS is no longer a setting: an admin session lasts 12 hours; unset it/);
    expect(msg).toMatch(/QUIN_USER_AGENT is no longer a setting: .*QUIN_CONTACT_URL/);
    // An empty value is the same as unset (how shells and compose files clear a variable).
    expect(loadConfig({ env: { QUIN_SESSION_HOURS: '' }, configFile: null }).encoder).toBe('static');
  });

  it('stops at start on a retired key in the config file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-config-'));
    const file = path.join(dir, 'quin.config.json');
    fs.writeFileSync(file, JSON.stringify({ loginRateLimit: 3 }));
    expect(problem(() => loadConfig({ env: {}, configFile: file }))).toMatch(
      /"loginRateLimit" .* is no longer a setting: sign-in attempts are limited to 10 per 15 minutes/,
    );
    fs.rmSync(dir, { recursive: true });
  });

  it('refuses the retired USE-lite encoder with the way forward, and accepts the served ones', () => {
    expect(problem(() => loadConfig({ env: { QUIN_ENCODER: 'use-lite' }, configFile: null }))).toMatch(
      /QUIN_ENCODER .*`use-lite` is no longer served.*use `static`.*`quin index` then rebuilds/,
    );
    expect(loadConfig({ env: { QUIN_ENCODER: 'onnx' }, configFile: null }).encoder).toBe('onnx');
    expect(problem(() => loadConfig({ env: { QUIN_ENCODER: 'word2vec' }, configFile: null }))).toMatch(/QUIN_ENCODER/);
  });
});
