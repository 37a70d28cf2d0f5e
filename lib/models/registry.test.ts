import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { closeLoadedModels, folderNameOf, loadRoleModel, resolveModelDir } from './registry';

const FIX = path.join(__dirname, 'fixtures');
afterAll(closeLoadedModels);

function config(env: Record<string, string>) {
  return loadConfig({ env, configFile: null, cwd: os.tmpdir() });
}

describe('model registry', () => {
  it('maps hub ids to folder names', () => {
    expect(folderNameOf('cross-encoder/ms-marco-MiniLM-L-6-v2')).toBe('ms-marco-MiniLM-L-6-v2');
    expect(folderNameOf('quin-nli')).toBe('quin-nli');
  });

  it('resolves a path, a name under QUIN_MODELS_DIR, a hub id, and none', () => {
    const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quin-models-'));
    fs.cpSync(path.join(FIX, 'tiny-nli'), path.join(modelsDir, 'nli-deberta-v3-xsmall'), { recursive: true });
    const c = config({ QUIN_MODELS_DIR: modelsDir, QUIN_RERANKER_MODEL: path.join(FIX, 'tiny-cross-encoder'), QUIN_NLI_MODEL: 'cross-encoder/nli-deberta-v3-xsmall' });
    expect(resolveModelDir('reranker', c)).toBe(path.join(FIX, 'tiny-cross-encoder'));
    expect(resolveModelDir('nli', c)).toBe(path.join(modelsDir, 'nli-deberta-v3-xsmall'));
    expect(resolveModelDir('reranker', config({ QUIN_RERANKER_MODEL: 'none' }))).toBeNull();
    expect(() => resolveModelDir('nli', config({ QUIN_MODELS_DIR: modelsDir, QUIN_NLI_MODEL: 'nobody/missing-model' }))).toThrow(/quin models pull nobody\/missing-model/);
  });

  it('loads each role once per process from the configured folders', async () => {
    const c = config({ QUIN_ENCODER_MODEL: path.join(FIX, 'tiny-encoder'), QUIN_RERANKER_MODEL: path.join(FIX, 'tiny-cross-encoder'), QUIN_NLI_MODEL: path.join(FIX, 'tiny-nli'), QUIN_ORT_THREADS: '1' });
    const enc = await loadRoleModel('encoder', c);
    expect(enc?.dim).toBe(4);
    expect(await loadRoleModel('encoder', c)).toBe(enc);
    const ce = await loadRoleModel('reranker', c);
    expect((await ce!.score('q', ['a', 'b'])).length).toBe(2);
    const nli = await loadRoleModel('nli', c);
    expect(Object.keys((await nli!.classify([['p', 'h']]))[0]!).sort()).toEqual(['contradiction', 'entailment', 'neutral']);
  });
});
