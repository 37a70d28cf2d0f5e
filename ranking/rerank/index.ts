/**
 * ranking/rerank: the reranking stage, built from the configured reranker model (the model registry
 * in lib/models: QUIN_RERANKER_MODEL, default per DEFAULT_MODELS) and QUIN_RERANK_DEPTH / QUIN_RERANK_WEIGHT.
 */
import type { Config } from '../../lib/config';
import { loadRoleModel } from '../../lib/models';
import { CrossEncoderRerankStage } from './stage';

export { CrossEncoderRerankStage, passageText, type RerankSettings } from './stage';
export { combineScores, minMax } from './combine';

export type RerankConfig = Pick<Config, 'rerankerModel' | 'rerankDepth' | 'rerankWeight' | 'encoderModel' | 'nliModel' | 'modelsDir' | 'ortThreads' | 'ortProvider' | 'modelBatchSize'>;

/** The stage, or null when no reranker is configured (QUIN_RERANKER_MODEL=none, or no default model). */
export async function createRerankStage(config: RerankConfig, overrides: { depth?: number; weight?: number; model?: string } = {}): Promise<CrossEncoderRerankStage | null> {
  const model = await loadRoleModel('reranker', overrides.model ? { ...config, rerankerModel: overrides.model } : config);
  if (!model) return null;
  return new CrossEncoderRerankStage(model, { depth: overrides.depth ?? config.rerankDepth, weight: overrides.weight ?? config.rerankWeight });
}
