/**
 * ranking/rerank: the reranking stage, built from the configured reranker model (the model registry
 * in lib/models: QUIN_RERANKER_MODEL, default per DEFAULT_MODELS) and the depth and weight below (the folder's combo.json, when it has one, decides both).
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

/**
 * Candidates reranked when the model folder has no combination layer (combo.json) fitted for a depth
 * of its own: chosen by evaluation and latency (docs/models.md).
 */
export const RERANK_DEFAULT_DEPTH = 50;
/**
 * Weight of the model's score against the fused score (min-max normalised per query) in the plain
 * mix, chosen on our SciFact dev split. Not read when the folder's combo.json combines the scores.
 */
export const RERANK_WEIGHT = 0.5;

export type RerankConfig = Pick<Config, 'rerankerModel' | 'encoderModel' | 'nliModel' | 'modelsDir' | 'ortThreads' | 'ortProvider'>;

/** The stage, or null when no reranker is configured (QUIN_RERANKER_MODEL=none, or no default model). */
export async function createRerankStage(
  config: RerankConfig,
  overrides: { depth?: number; weight?: number; model?: string; combo?: boolean } = {},
): Promise<CrossEncoderRerankStage | null> {
  const cfg = overrides.model ? { ...config, rerankerModel: overrides.model } : config;
  const model = await loadRoleModel('reranker', cfg);
  if (!model) return null;
  const dir = resolveModelDir('reranker', cfg);
  const combo = overrides.combo !== false && dir ? readComboWeights(dir) : null;
  // The combination layer reranks as many candidates as it was fitted on (an evaluation may ask for another depth).
  return new CrossEncoderRerankStage(model, {
    depth: overrides.depth ?? combo?.depth ?? RERANK_DEFAULT_DEPTH,
    weight: overrides.weight ?? RERANK_WEIGHT,
    combo,
  });
}
