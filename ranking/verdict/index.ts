/**
 * ranking/verdict: the verdict stage, built from the configured NLI model (lib/models registry:
 * QUIN_NLI_MODEL, default per DEFAULT_MODELS) and the QUIN_VERDICT_* settings.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../lib/config';
import { createError } from '../../lib/errors';
import { loadRoleModel, resolveModelDir } from '../../lib/models';
import { parseLearnedAggregator, type LearnedAggregator } from './learned';
import { NliVerdictStage, type VerdictSettings } from './stage';

export { NliVerdictStage, evidenceItems, type VerdictSettings } from './stage';
export { parseLearnedAggregator, verdictFeatures, learnedProbs, VERDICT_FEATURES, LEARNED_LABELS, type LearnedAggregator } from './learned';
export { aggregate, groupByStance, stanceOf, type Aggregate, type JudgedSentence, type VerdictThresholds } from './aggregate';

export type VerdictConfig = Pick<
  Config,
  'nliModel' | 'verdictLearned' | 'verdictDepth' | 'verdictSentences' | 'verdictMinEvidence' | 'verdictMixedRatio' | 'verdictRefuteWeight' | 'encoderModel' | 'rerankerModel' | 'modelsDir' | 'ortThreads' | 'ortProvider' | 'modelBatchSize'
>;

export function verdictSettings(config: VerdictConfig): VerdictSettings {
  return { depth: config.verdictDepth, sentences: config.verdictSentences, minEvidence: config.verdictMinEvidence, mixedRatio: config.verdictMixedRatio, refuteWeight: config.verdictRefuteWeight };
}

/** The stage, or null when no NLI model is configured (QUIN_NLI_MODEL=none, or no default model). */
/** The learned aggregator fitted for the NLI model in `dir` (its verdict.json), or null when it has none. */
export function readLearnedAggregator(dir: string): LearnedAggregator | null {
  const file = path.join(dir, 'verdict.json');
  if (!fs.existsSync(file)) return null;
  try {
    return parseLearnedAggregator(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (e) {
    throw createError('MODEL_INVALID', `${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export async function createVerdictStage(config: VerdictConfig, overrides: Partial<VerdictSettings> & { model?: string } = {}): Promise<NliVerdictStage | null> {
  const cfg = overrides.model ? { ...config, nliModel: overrides.model } : config;
  const model = await loadRoleModel('nli', cfg);
  if (!model) return null;
  const { model: _m, ...settings } = overrides;
  const dir = resolveModelDir('nli', cfg);
  const learned = config.verdictLearned && dir ? readLearnedAggregator(dir) : null;
  // A learned aggregator reads the evidence it was fitted on (its depth and sentences per result).
  const fitted = learned ? { ...(learned.depth ? { depth: learned.depth } : {}), ...(learned.sentences ? { sentences: learned.sentences } : {}) } : {};
  return new NliVerdictStage(model, { ...verdictSettings(config), learned, ...fitted, ...settings });
}
