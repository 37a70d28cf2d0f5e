/**
 * For `quin models list`: the settings a role's model folder can supply (the NLI folder's
 * verdict.json, the reranker folder's combo.json), each with the value in force and where it comes
 * from, so an operator sees whether their QUIN_* setting or the folder's file decides.
 */
import { type Config } from '../../lib/config';
import { describeError } from '../../lib/errors';
import type { ModelFolder } from '../../lib/models';
import { filesFor, fittedFiles, verdictSettings, type VerdictSettings } from '../../ranking/verdict';
import { RERANK_DEFAULT_DEPTH, readComboWeights } from '../../ranking/rerank';

export interface SettingInForce {
  setting: string;
  value: number;
  origin: string;
}

export interface RoleSettings {
  settings: SettingInForce[];
  /** Why the folder's file is not read, or why the settings could not be worked out. */
  note: string | null;
}

const VERDICT_ENV: Record<keyof VerdictSettings, string> = {
  depth: 'QUIN_VERDICT_DEPTH',
  sentences: 'QUIN_VERDICT_SENTENCES',
  judged: 'sentences judged (verdict.json only)',
  commit: 'QUIN_VERDICT_COMMIT',
  commitRefuted: 'QUIN_VERDICT_COMMIT_REFUTED',
  mixed: 'QUIN_VERDICT_MIXED',
};

/** The verdict settings in force for the NLI model in `folder` (the rule of ranking/verdict's createVerdictStage). */
export function nliSettingsInForce(config: Config, folder: ModelFolder): RoleSettings {
  try {
    const files = fittedFiles(folder.dir);
    // As createVerdictStage: files fitted for another model (stance.json names it) are not read.
    const fitted = filesFor(files, `onnx:${folder.name}@${folder.hash}`);
    const suits = fitted.stance !== null || !files.stance;
    const resolved = verdictSettings(config, fitted.aggregator);
    // commitRefuted is always resolved (it falls back to commit); `?? commit` only satisfies its optional type.
    const settings = (Object.keys(VERDICT_ENV) as (keyof VerdictSettings)[]).map((k) => ({
      setting: VERDICT_ENV[k],
      value: resolved[k] ?? resolved.commit,
      origin: resolved.origin[k],
    }));
    return { settings, note: suits ? null : `stance.json and verdict.json were fitted for ${files.stance?.nli}, not this model: not read` };
  } catch (e) {
    return { settings: [], note: describeError(e) };
  }
}

/** The rerank depth in force for the reranker in `folder`: its combo.json's, when it has one and QUIN_RERANK_COMBO is on. */
export function rerankerSettingsInForce(config: Config, folder: ModelFolder): RoleSettings {
  try {
    const combo = config.rerankCombo ? readComboWeights(folder.dir) : null;
    // As createRerankStage: an explicit setting, else the depth the combination layer was fitted on, else the default.
    const depth =
      config.rerankDepth !== undefined
        ? { value: config.rerankDepth, origin: 'setting' }
        : combo?.depth !== undefined
          ? { value: combo.depth, origin: 'combo.json' }
          : { value: RERANK_DEFAULT_DEPTH, origin: 'default' };
    const notes = [
      combo ? 'combo.json replaces the plain mix (QUIN_RERANK_WEIGHT not read)' : null,
      combo?.depth !== undefined && config.rerankDepth !== undefined
        ? `QUIN_RERANK_DEPTH=${config.rerankDepth} overrides combo.json's ${combo.depth}`
        : null,
    ].filter((n) => n !== null);
    return { settings: [{ setting: 'QUIN_RERANK_DEPTH', ...depth }], note: notes.length ? notes.join('; ') : null };
  } catch (e) {
    return { settings: [], note: describeError(e) };
  }
}
