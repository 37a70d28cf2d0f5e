/**
 * ranking/verdict: the verdict stage, built from the configured NLI model (lib/models registry:
 * QUIN_NLI_MODEL, default per DEFAULT_MODELS) and the QUIN_VERDICT_* settings.
 */
import type { Config } from '../../lib/config';
import { loadRoleModel } from '../../lib/models';
import { NliVerdictStage, type VerdictSettings } from './stage';

export { NliVerdictStage, evidenceItems, type VerdictSettings } from './stage';
export { aggregate, groupByStance, stanceOf, type Aggregate, type JudgedSentence, type VerdictThresholds } from './aggregate';

export type VerdictConfig = Pick<
  Config,
  'nliModel' | 'verdictDepth' | 'verdictSentences' | 'verdictMinEvidence' | 'verdictMixedRatio' | 'verdictRefuteWeight' | 'encoderModel' | 'rerankerModel' | 'modelsDir' | 'ortThreads' | 'ortProvider' | 'modelBatchSize'
>;

export function verdictSettings(config: VerdictConfig): VerdictSettings {
  return { depth: config.verdictDepth, sentences: config.verdictSentences, minEvidence: config.verdictMinEvidence, mixedRatio: config.verdictMixedRatio, refuteWeight: config.verdictRefuteWeight };
}

/** The stage, or null when no NLI model is configured (QUIN_NLI_MODEL=none, or no default model). */
export async function createVerdictStage(config: VerdictConfig, overrides: Partial<VerdictSettings> & { model?: string } = {}): Promise<NliVerdictStage | null> {
  const model = await loadRoleModel('nli', overrides.model ? { ...config, nliModel: overrides.model } : config);
  if (!model) return null;
  const { model: _m, ...settings } = overrides;
  return new NliVerdictStage(model, { ...verdictSettings(config), ...settings });
}
