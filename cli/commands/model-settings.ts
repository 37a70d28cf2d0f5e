/**
 * For `quin models list`: the settings a role's model folder can supply (the NLI folder's
 * verdict.json, the reranker folder's combo.json), each with the value in force and where it comes
 * from (the folder's file or the built-in default).
 */
import { describeError } from '../../lib/errors';
import type { ModelFolder } from '../../lib/models';
import { fittedAggregator, verdictSettings, type VerdictSettings } from '../../ranking/verdict';
import { RERANK_DEFAULT_DEPTH, readComboWeights } from '../../ranking/rerank';

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
  rule: 'cue override',
  commit: 'commit',
  commitRefuted: 'commit (refuted)',
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

/** The rerank depth in force for the reranker in `folder`: its combo.json's, when it has one. */
export function rerankerSettingsInForce(folder: ModelFolder): RoleSettings {
  try {
    const combo = readComboWeights(folder.dir);
    // As createRerankStage: the depth the combination layer was fitted on, else the default.
    const depth =
      combo?.depth !== undefined ? { value: combo.depth, origin: 'combo.json' } : { value: RERANK_DEFAULT_DEPTH, origin: 'default' };
    return {
      settings: [{ setting: 'rerank depth', ...depth }],
      note: combo ? 'combo.json combines the scores (the plain mix is not used)' : null,
    };
  } catch (e) {
    return { settings: [], note: describeError(e) };
  }
}
