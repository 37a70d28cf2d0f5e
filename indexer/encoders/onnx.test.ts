import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { isQuinError } from '../../lib/errors';
import { closeLoadedModels } from '../../lib/models';
import { projectRoot } from '../../lib/paths';
import { createEncoder } from './index';

// A standard sentence-transformers folder (model.onnx, tokenizer.json, config.json, 1_Pooling),
// tiny, made by lib/models for its own tests.
const TINY = path.join(projectRoot(), 'lib/models/fixtures/tiny-encoder');

afterAll(() => closeLoadedModels());

describe('ONNX sentence encoder (QUIN_ENCODER=onnx)', () => {
  it('embeds with a standard model folder: normalised vectors, a content-addressed id', async () => {
    const config = loadConfig({ env: {}, configFile: null, overrides: { encoder: 'onnx', encoderModel: TINY } });
    const enc = await createEncoder(config);
    expect(enc.id).toMatch(/^onnx:tiny-encoder@/);
    const [a, b, c] = await enc.embed(['the cat sat on the mat', 'the cat sat on the mat', 'stock markets fell sharply']);
    expect(a).toHaveLength(enc.dim);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    expect(await enc.embed([])).toEqual([]);
  });

  it('says what is missing when no model folder is configured or found', async () => {
    const noModel = loadConfig({ env: {}, configFile: null, overrides: { encoder: 'onnx' } });
    await expect(createEncoder(noModel)).rejects.toSatisfy((e) => isQuinError(e, 'CONFIG_INVALID'));
    const missing = loadConfig({ env: {}, configFile: null, overrides: { encoder: 'onnx', encoderModel: '/nonexistent/model' } });
    await expect(createEncoder(missing)).rejects.toSatisfy((e) => isQuinError(e, 'MODEL_UNAVAILABLE'));
  });
});
