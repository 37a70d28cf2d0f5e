/**
 * The reranking runs of `quin eval` (added to EVAL_RUNS): hybrid score fusion, then the reranking
 * stage over the top candidates (the depth, weight and input of the model folder's rerank.json, else
 * the stage's defaults). The model is the configured reranker, else our own models/quin-reranker, so
 * the stage is evaluated even where the default configuration leaves it off.
 */
import type { Config } from '../lib/config';
import { describeError } from '../lib/errors';
import { DEFAULT_MODELS } from '../lib/models';
import { createRerankStage, type RerankSettings } from '../ranking/rerank';
import type { EvalRun } from './runs';

/** The reranker a run evaluates: the configured one, else the default, else our own. */
export function evaluatedReranker(config: Pick<Config, 'rerankerModel'>): string {
  return config.rerankerModel ?? DEFAULT_MODELS.reranker ?? 'quin-reranker';
}

function rerankRun(name: string, description: string, overrides: Partial<RerankSettings>): EvalRun {
  return {
    name,
    description,
    mode: 'hybrid',
    options: { fusion: 'score' },
    rerank: true,
    default: name === 'hybrid+rerank',
    async setup(_base, config) {
      const model = evaluatedReranker(config);
      if (model.toLowerCase() === 'none') return 'QUIN_RERANKER_MODEL=none';
      try {
        const stage = await createRerankStage(config, { ...overrides, model });
        return stage ? { reranker: stage } : `no reranker model (${model})`;
      } catch (e) {
        return describeError(e);
      }
    },
  };
}

export const RERANK_RUNS: EvalRun[] = [
  rerankRun('hybrid+rerank', 'hybrid score fusion, then the reranker over the top candidates with its fitted settings (rerank.json)', {}),
  rerankRun('hybrid+rerank_only', 'as hybrid+rerank with weight 1: the reranker alone orders the top candidates', { weight: 1 }),
  rerankRun('hybrid+rerank@50', 'as hybrid+rerank over the top 50', { depth: 50 }),
];
