/** `quin models pull` and `quin models list` end to end, against a local hub-like server and the repository's own model folders. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../lib/config';
import { folderFiles, startFakeHub } from '../../lib/models/fake-hub';
import { main } from '../main';

const fixtures = path.join(__dirname, '..', '..', 'lib', 'models', 'fixtures');
const saved = { ...process.env };
afterAll(() => {
  process.env = saved;
  resetConfig();
});

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  try {
    process.exitCode = undefined;
    const code = await main(args);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('quin models', () => {
  it('pulls a model from HF_ENDPOINT and lists it in its role', async () => {
    const hub = await startFakeHub({ repo: 'cross-encoder/nli-tiny', files: folderFiles(path.join(fixtures, 'tiny-nli')) });
    const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-cli-models-'));
    Object.assign(process.env, { HF_ENDPOINT: hub.url, QUIN_MODELS_DIR: modelsDir, QUIN_NLI_MODEL: 'cross-encoder/nli-tiny' });
    resetConfig();
    try {
      const pulled = await run(['models', 'pull', 'cross-encoder/nli-tiny', '--revision', 'main']);
      expect(pulled.code).toBe(0);
      expect(pulled.out).toMatch(/cross-encoder\/nli-tiny@[0-9a-f]{12} → .*nli-tiny \(\d+ files, .* MB, verified\)/);
      const listed = await run(['models', 'list', '--json']);
      const json = JSON.parse(listed.out) as {
        roles: Record<string, string | null>;
        models: { name: string; labels: string[]; serves: string[] }[];
      };
      expect(json.roles.nli).toBe(path.join(modelsDir, 'nli-tiny'));
      expect(json.models.find((m) => m.name === 'nli-tiny')).toMatchObject({
        labels: ['Neutral', 'CONTRADICTION', 'entailment'],
        serves: ['nli'],
      });
      const missing = await run(['models', 'pull', 'cross-encoder/absent']);
      expect(missing.code).toBe(1);
      expect(missing.err).toMatch(/DOWNLOAD_FAILED: cross-encoder\/absent@main: not found/);
    } finally {
      await hub.close();
    }
  });

  it('lists the verdict and rerank settings in force and why: verdict.json, rerank.json or the default', async () => {
    const repoModels = path.join(__dirname, '..', '..', 'models');
    const fitted = JSON.parse(fs.readFileSync(path.join(repoModels, 'quin-nli', 'verdict.json'), 'utf8')) as { sentences: number };
    const rerank = JSON.parse(fs.readFileSync(path.join(repoModels, 'quin-reranker', 'rerank.json'), 'utf8')) as {
      depth: number;
      weight: number;
    };
    const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-cli-models-'));
    Object.assign(process.env, {
      QUIN_MODELS_DIR: modelsDir,
      QUIN_NLI_MODEL: path.join(repoModels, 'quin-nli'),
      QUIN_RERANKER_MODEL: path.join(repoModels, 'quin-reranker'),
    });
    type Listed = { settings: Record<string, { settings: { setting: string; value: number; origin: string }[]; note: string | null }> };
    const list = async () => {
      resetConfig();
      const r = await run(['models', 'list', '--json']);
      expect(r.code).toBe(0);
      const json = JSON.parse(r.out) as Listed;
      return (role: string, setting: string) => json.settings[role]!.settings.find((x) => x.setting === setting);
    };

    const folder = await list();
    expect(folder('nli', 'sentences per result')).toEqual({
      setting: 'sentences per result',
      value: fitted.sentences,
      origin: 'verdict.json',
    });
    expect(folder('nli', 'commit')?.origin).toBe('verdict.json');
    expect(folder('reranker', 'rerank depth')).toEqual({ setting: 'rerank depth', value: rerank.depth, origin: 'rerank.json' });
    expect(folder('reranker', 'rerank weight')).toEqual({ setting: 'rerank weight', value: rerank.weight, origin: 'rerank.json' });

    const text = await run(['models', 'list']);
    expect(text.out).toContain(`  sentences per result = ${fitted.sentences} (verdict.json)`);
    expect(text.out).toContain(`  rerank depth = ${rerank.depth} (rerank.json)`);
    expect(text.out).toContain('the model reads');
  });
});
