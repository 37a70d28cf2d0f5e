/**
 * Sentence encoder from a standard Hugging Face sentence-transformers ONNX folder (model.onnx +
 * tokenizer.json + config.json, pooling from 1_Pooling/config.json, L2-normalised), served by the one
 * model runtime in lib/models. Its id names the folder and its content hash, so that a different
 * model never reuses another's cached vectors.
 */
import type { Config } from '../../lib/config';
import { createError } from '../../lib/errors';
import { loadRoleModel, resolveModelDir } from '../../lib/models';
import { readFusion } from './static/encoder';
import type { Encoder } from '../types';

type OnnxConfig = Parameters<typeof loadRoleModel>[1];

export async function createOnnxEncoder(config: OnnxConfig & Pick<Config, 'encoderModel'>): Promise<Encoder> {
  if (!config.encoderModel || config.encoderModel.toLowerCase() === 'none') {
    throw createError(
      'CONFIG_INVALID',
      'QUIN_ENCODER=onnx needs QUIN_ENCODER_MODEL (a sentence-transformers ONNX folder, its name under QUIN_MODELS_DIR, or a hub id pulled with `quin models pull`)',
    );
  }
  const model = await loadRoleModel('encoder', config);
  if (!model) throw createError('MODEL_UNAVAILABLE', `QUIN_ENCODER_MODEL=${config.encoderModel}: no encoder loaded`);
  // BM25's fusion weight fitted for this model, when its folder has a fusion.json (as for a static table).
  const dir = resolveModelDir('encoder', config);
  const fusion = dir ? readFusion(dir) : undefined;
  return {
    id: model.id,
    dim: model.dim,
    embed: (texts: string[]) => model.embed(texts),
    // The registry owns the session (shared with other roles); closeLoadedModels() releases it.
    ...(fusion === undefined ? {} : { fusionBm25Weight: fusion }),
  };
}
