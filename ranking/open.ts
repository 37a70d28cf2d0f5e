/**
 * The search context of a process (CLI run, web server): indexes opened once, the configured
 * reranker and verdict stages loaded once. Each model is a feature that can fail alone: a stage whose
 * model is configured but missing or broken (a truncated model.onnx) is left out, with the model and
 * the problem recorded in `unavailable`, and search goes on without it — a broken verdict model used
 * to make every search answer 503.
 */
import path from 'node:path';
import type { Config } from '../lib/config';
import type { Db } from '../lib/db/client';
import { isQuinError } from '../lib/errors';
import { createLogger } from '../lib/log';
import { folderNameOf, resolveModelDir, type ModelRole } from '../lib/models';
import { withoutServerPaths } from '../lib/public-text';
import { openSearchIndexes } from '../indexer';
import { rankingOptions, type FeatureProblem, type SearchContext } from './context';
import { createRerankStage } from './rerank';
import type { RerankStage, VerdictStage } from './stages';
import { createVerdictStage } from './verdict';

const log = createLogger('search');

export interface OpenContextOptions {
  /** Load the reranker / verdict stages (default true). */
  rerank?: boolean;
  verdict?: boolean;
}

/** The folder name of the model a role is configured with (never a path). */
function modelName(role: ModelRole, config: Config): string {
  try {
    const dir = resolveModelDir(role, config);
    if (dir) return path.basename(dir);
  } catch {
    // A folder that does not exist: the setting names it.
  }
  const raw = role === 'reranker' ? config.rerankerModel : config.nliModel;
  return folderNameOf(path.basename(raw ?? role));
}

/** The stage, or null with the problem when its model cannot serve. */
interface Optional<T> {
  stage: T | null;
  problem?: FeatureProblem;
}

async function optionalStage<T>(role: 'reranker' | 'nli', config: Config, create: () => Promise<T | null>): Promise<Optional<T>> {
  try {
    return { stage: await create() };
  } catch (e) {
    const message = isQuinError(e) ? e.message : e instanceof Error ? e.message : String(e);
    const problem = { model: modelName(role, config), problem: withoutServerPaths(message) };
    log.warn(
      `${role === 'nli' ? 'verdicts' : 'reranking'} unavailable: the ${role === 'nli' ? 'NLI' : 'reranker'} model cannot be loaded`,
      {
        model: problem.model,
        error: message,
      },
    );
    return { stage: null, problem };
  }
}

export async function openSearchContext(config: Config, db: Db, opts: OpenContextOptions = {}): Promise<SearchContext> {
  const none = { stage: null };
  const [indexes, reranker, verdict]: [SearchContext['indexes'], Optional<RerankStage>, Optional<VerdictStage>] = await Promise.all([
    openSearchIndexes(config, db),
    opts.rerank === false ? none : optionalStage('reranker', config, () => createRerankStage(config)),
    opts.verdict === false ? none : optionalStage('nli', config, () => createVerdictStage(config)),
  ]);
  const unavailable = {
    ...(reranker.problem ? { reranker: reranker.problem } : {}),
    ...(verdict.problem ? { verdict: verdict.problem } : {}),
  };
  return {
    indexes,
    db,
    provider: config.databaseProvider,
    options: rankingOptions(config, {}, indexes.encoder),
    reranker: reranker.stage,
    verdict: verdict.stage,
    ...(Object.keys(unavailable).length ? { unavailable } : {}),
  };
}
