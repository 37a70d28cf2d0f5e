/**
 * ranking/rerank: the reranking stage, built from the configured reranker model (the model registry
 * in lib/models: QUIN_RERANKER_MODEL, default per DEFAULT_MODELS) and its settings — the folder's
 * fitted rerank.json when it has one (ours: depth, weight and input chosen on the dev split,
 * docs/models.md), else the defaults below (a downloaded cross-encoder).
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../../lib/config';
import { createError } from '../../lib/errors';
import { loadRoleModel, resolveModelDir } from '../../lib/models';
import { PASSAGE_INPUTS } from './passage';
import { CrossEncoderRerankStage, type RerankSettings } from './stage';

export { CrossEncoderRerankStage, DEFAULT_BEST_CHARS, type RerankSettings } from './stage';
export { combineScores, minMax } from './combine';
export { passageText, bestSentencesText, type PassageInput } from './passage';

/** Candidates reranked by a model whose folder has no rerank.json (a downloaded cross-encoder). */
export const RERANK_DEFAULT_DEPTH = 20;
/**
 * Weight of a model's score against the fused score (min-max normalised per query) when its folder
 * has no rerank.json.
 */
export const RERANK_WEIGHT = 0.5;

/** rerank.json, as training/reranker/curve.py writes it. */
export const rerankSettingsSchema = z
  .object({
    depth: z.number().int('depth must be a positive integer').min(1, 'depth must be a positive integer'),
    weight: z.number().min(0, 'weight must be in [0, 1]').max(1, 'weight must be in [0, 1]'),
    input: z
      .enum(PASSAGE_INPUTS as [string, ...string[]], { error: `input must be one of ${PASSAGE_INPUTS.join(', ')}` })
      .default('window'),
    chars: z.number().int('chars must be a positive integer').min(1, 'chars must be a positive integer').optional(),
  })
  .transform((s) => s as RerankSettings);

/** The settings fitted for the model in `dir` (its rerank.json), or null when it has none. */
export function readRerankSettings(dir: string): RerankSettings | null {
  const file = path.join(dir, 'rerank.json');
  if (!fs.existsSync(file)) return null;
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw createError('MODEL_INVALID', `${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = rerankSettingsSchema.safeParse(value);
  if (!parsed.success) throw createError('MODEL_INVALID', `${file}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

export type RerankConfig = Pick<Config, 'rerankerModel' | 'encoderModel' | 'nliModel' | 'modelsDir' | 'ortThreads' | 'ortProvider'>;

/** The stage, or null when no reranker is configured (QUIN_RERANKER_MODEL=none, or no default model). */
export async function createRerankStage(
  config: RerankConfig,
  overrides: Partial<RerankSettings> & { model?: string } = {},
): Promise<CrossEncoderRerankStage | null> {
  const { model: name, ...settings } = overrides;
  const cfg = name ? { ...config, rerankerModel: name } : config;
  const model = await loadRoleModel('reranker', cfg);
  if (!model) return null;
  const dir = resolveModelDir('reranker', cfg);
  const fitted = dir ? readRerankSettings(dir) : null;
  return new CrossEncoderRerankStage(model, {
    ...(fitted ?? { depth: RERANK_DEFAULT_DEPTH, weight: RERANK_WEIGHT }),
    ...Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined)),
  });
}
