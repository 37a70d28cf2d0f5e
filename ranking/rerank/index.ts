/**
 * ranking/rerank: the reranking stage, built from the configured reranker model (the model registry
 * in lib/models: QUIN_RERANKER_MODEL, default per DEFAULT_MODELS) and QUIN_RERANK_DEPTH / QUIN_RERANK_WEIGHT.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../lib/config';
import { createError } from '../../lib/errors';
import { loadRoleModel, resolveModelDir } from '../../lib/models';
import { parseComboWeights, type ComboWeights } from './combo';
import { CrossEncoderRerankStage } from './stage';

export { CrossEncoderRerankStage, passageText, type RerankSettings } from './stage';
export { combineScores, minMax } from './combine';
export { comboScores, comboRaw, parseComboWeights, type ComboWeights } from './combo';
export { candidateFeatures, FEATURE_NAMES, type Features } from './features';

/** The combination layer fitted for the model in `dir` (its combo.json), or null when it has none. */
export function readComboWeights(dir: string): ComboWeights | null {
  const file = path.join(dir, 'combo.json');
  if (!fs.existsSync(file)) return null;
  try {
    return parseComboWeights(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (e) {
    throw createError('MODEL_INVALID', `${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Candidates reranked without an explicit setting or a fitted combination layer. */
export const RERANK_DEFAULT_DEPTH = 50;

export type RerankConfig = Pick<
  Config,
  | 'rerankerModel'
  | 'rerankDepth'
  | 'rerankWeight'
  | 'rerankCombo'
  | 'encoderModel'
  | 'nliModel'
  | 'modelsDir'
  | 'ortThreads'
  | 'ortProvider'
  | 'modelBatchSize'
>;

/** The stage, or null when no reranker is configured (QUIN_RERANKER_MODEL=none, or no default model). */
export async function createRerankStage(
  config: RerankConfig,
  overrides: { depth?: number; weight?: number; model?: string; combo?: boolean } = {},
): Promise<CrossEncoderRerankStage | null> {
  const cfg = overrides.model ? { ...config, rerankerModel: overrides.model } : config;
  const model = await loadRoleModel('reranker', cfg);
  if (!model) return null;
  const dir = resolveModelDir('reranker', cfg);
  const combo = overrides.combo !== false && config.rerankCombo && dir ? readComboWeights(dir) : null;
  // The combination layer reranks as many candidates as it was fitted on.
  return new CrossEncoderRerankStage(model, {
    depth: overrides.depth ?? config.rerankDepth ?? combo?.depth ?? RERANK_DEFAULT_DEPTH,
    weight: overrides.weight ?? config.rerankWeight,
    combo,
  });
}
