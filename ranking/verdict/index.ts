/**
 * ranking/verdict: the verdict stage, built from the configured NLI model (lib/models registry:
 * QUIN_NLI_MODEL, default per DEFAULT_MODELS) and the QUIN_VERDICT_* settings.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../lib/config';
import { createError } from '../../lib/errors';
import { USE_LITE_ID } from '../../indexer/encoders/use-lite';
import { loadRoleModel, resolveModelDir } from '../../lib/models';
import { parseFittedAggregation, type FittedAggregation } from './fitted';
import { NliVerdictStage, type VerdictSettings } from './stage';
import { StanceHead } from './stance-head';

export { NliVerdictStage, evidenceItems, type VerdictSettings, type JudgeContext } from './stage';
export { StanceHead } from './stance-head';
export { parseFittedAggregation, type FittedAggregation, type FittedThresholds } from './fitted';
export { parseLearnedAggregator, verdictFeatures, learnedProbs, VERDICT_FEATURES, LEARNED_LABELS, type LearnedAggregator } from './learned';
export { aggregate, groupByStance, stanceOf, stanceUnder, type Aggregate, type JudgedSentence, type VerdictThresholds } from './aggregate';

export type VerdictConfig = Pick<
  Config,
  'encoder' | 'nliModel' | 'nliStanceHead' | 'verdictLearned' | 'verdictDepth' | 'verdictSentences' | 'verdictMinEvidence' | 'verdictMixedRatio' | 'verdictRefuteWeight' | 'encoderModel' | 'rerankerModel' | 'modelsDir' | 'ortThreads' | 'ortProvider' | 'modelBatchSize'
>;

export function verdictSettings(config: VerdictConfig): VerdictSettings {
  return { depth: config.verdictDepth, sentences: config.verdictSentences, minEvidence: config.verdictMinEvidence, mixedRatio: config.verdictMixedRatio, refuteWeight: config.verdictRefuteWeight };
}

/** The aggregation fitted for the NLI model in `dir` (its verdict.json), or null when it has none. */
export function readFittedAggregation(dir: string): FittedAggregation | null {
  const file = path.join(dir, 'verdict.json');
  if (!fs.existsSync(file)) return null;
  try {
    return parseFittedAggregation(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (e) {
    throw createError('MODEL_INVALID', `${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * The folder's stance head when the configured encoder can feed it (it reads that encoder's vectors);
 * ONNX encoders are told apart at request time by their id.
 */
async function stanceHeadFor(dir: string, config: VerdictConfig): Promise<StanceHead | null> {
  const head = await StanceHead.load(dir, { threads: config.ortThreads, provider: config.ortProvider });
  if (!head) return null;
  const fits = config.encoder === 'use-lite' ? head.encoder === USE_LITE_ID : head.encoder.startsWith('onnx:');
  if (fits) return head;
  await head.close();
  return null;
}

/** The stage, or null when no NLI model is configured (QUIN_NLI_MODEL=none, or no default model). */
export async function createVerdictStage(config: VerdictConfig, overrides: Partial<VerdictSettings> & { model?: string } = {}): Promise<NliVerdictStage | null> {
  const cfg = overrides.model ? { ...config, nliModel: overrides.model } : config;
  const model = await loadRoleModel('nli', cfg);
  if (!model) return null;
  const { model: _m, ...settings } = overrides;
  const dir = resolveModelDir('nli', cfg);
  const head = config.nliStanceHead && dir ? await stanceHeadFor(dir, config) : null;
  const read = config.verdictLearned && dir ? readFittedAggregation(dir) : null;
  // Fitted on the stance head's probabilities, it does not suit the model's own.
  const fitted = read && (!read.stanceHead || head) ? read : null;
  // A fitted aggregation reads the evidence it was fitted on (its depth and sentences per result).
  const shape = { ...(fitted?.depth ? { depth: fitted.depth } : {}), ...(fitted?.sentences ? { sentences: fitted.sentences } : {}) };
  return new NliVerdictStage(model, { ...verdictSettings(config), ...(fitted?.thresholds ?? {}), learned: fitted?.learned ?? null, ...shape, ...settings }, head);
}
