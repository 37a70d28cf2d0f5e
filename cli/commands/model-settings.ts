/**
 * For `quin models list`: the settings a role's model folder can supply (the NLI folder's
 * verdict.json, the reranker folder's rerank.json), each with the value in force and where it comes
 * from (the folder's file or the built-in default).
 */
import { describeError } from '../../lib/errors';
import type { ModelFolder } from '../../lib/models';
import { fittedAggregator, verdictSettings, type VerdictSettings } from '../../ranking/verdict';
import { DEFAULT_BEST_CHARS, RERANK_DEFAULT_DEPTH, RERANK_WEIGHT, readRerankSettings } from '../../ranking/rerank';

export interface SettingInForce {
  setting: string;
  value: number | boolean;
  origin: string;
}

export interface RoleSettings {
  settings: SettingInForce[];
  /** Why the folder's file is not read, or why the settings could not be worked out. */
  note: string | null;
}

const VERDICT_NAMES: Record<keyof VerdictSettings, string> = {
  depth: 'results read',
  sentences: 'sentences per result',
  passages: 'passages read',
  judged: 'items judged',
  commit: 'commit',
  commitRefuted: 'commit (refuted)',
  commitRefutedDetail: 'commit (refuted, a detail contradicted)',
  mixed: 'mixed',
};

/** The verdict settings in force for the NLI model in `folder` (the rule of ranking/verdict's createVerdictStage). */
export function nliSettingsInForce(folder: ModelFolder): RoleSettings {
  try {
    const resolved = verdictSettings(fittedAggregator(folder.dir));
    // commitRefuted is always resolved (it falls back to commit); `?? commit` only satisfies its optional type.
    const settings = (Object.keys(VERDICT_NAMES) as (keyof VerdictSettings)[]).map((k) => ({
      setting: VERDICT_NAMES[k],
      value: resolved[k] ?? resolved.commit,
      origin: resolved.origin[k],
    }));
    return { settings, note: null };
  } catch (e) {
    return { settings: [], note: describeError(e) };
  }
}

/** The rerank settings in force for the reranker in `folder`: its rerank.json's, else the defaults (as createRerankStage). */
export function rerankerSettingsInForce(folder: ModelFolder): RoleSettings {
  try {
    const fitted = readRerankSettings(folder.dir);
    const origin = fitted ? 'rerank.json' : 'default';
    const settings: SettingInForce[] = [
      { setting: 'rerank depth', value: fitted?.depth ?? RERANK_DEFAULT_DEPTH, origin },
      { setting: 'rerank weight', value: fitted?.weight ?? RERANK_WEIGHT, origin },
    ];
    return {
      settings,
      note: fitted
        ? `the model reads ${fitted.input === 'best' ? `the best sentences (${fitted.chars ?? DEFAULT_BEST_CHARS} characters)` : 'the window'}`
        : null,
    };
  } catch (e) {
    return { settings: [], note: describeError(e) };
  }
}
