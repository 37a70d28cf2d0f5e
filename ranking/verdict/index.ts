/**
 * ranking/verdict: the verdict stage, built from the configured NLI model (lib/models registry:
 * QUIN_NLI_MODEL, default per DEFAULT_MODELS), the decision fitted for it in its folder (verdict.json:
 * the calibrated claim-level aggregator, its commit thresholds, the evidence it reads and whether the
 * alignment's cue override applies) and the aligner's lexicon (models/quin-align, the reasons shown).
 * A supplied model without verdict.json decides by the default rule.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { Config } from '../../lib/config';
import { createError } from '../../lib/errors';
import { loadRoleModel, resolveModelDir } from '../../lib/models';
import { projectRoot } from '../../lib/paths';
import { Lexicon } from './details/lexicon';
import { AggregatorFile, checkAggregator, type Aggregator } from './decide';
import { DEFAULT_READING, READING_FEATURES, StanceJudge } from './judge';
import { NliVerdictStage, type VerdictSettings } from './stage';

export {
  NliVerdictStage,
  evidenceItems,
  pickEvidence,
  answerScore,
  refersBack,
  type VerdictSettings,
  type Judged,
  type EvidenceItem,
} from './stage';
export { StanceJudge, mostProbable, read, DEFAULT_READING, READING_FEATURES, type Judgement, type JudgeInput, type Reading } from './judge';
export {
  decide,
  claimFeatures,
  stanceOf,
  CLAIM_FEATURES,
  AggregatorFile,
  type Aggregator,
  type Decision,
  type JudgedItem,
  type StanceProbs,
} from './decide';
export { Lexicon } from './details/lexicon';
export { sameClaim, sameFrom, SAME_CLAIM_COVERAGE, type SameClaim } from './same-claim';

export type VerdictConfig = Pick<Config, 'nliModel' | 'encoderModel' | 'rerankerModel' | 'modelsDir' | 'ortThreads' | 'ortProvider'>;

/**
 * Without a fitted verdict.json (a supplied NLI model): read 5 results × 3 sentences, show the best 6;
 * commit at 0.5 (either side); MIXED when both sides reach 0.8; each sentence read as judge.ts DEFAULT_READING says.
 */
export const VERDICT_DEFAULTS = { depth: 5, sentences: 3, passages: false, judged: 6, commit: 0.5, mixed: 0.8 } as const;

export const LEXICON_FILE = path.join(projectRoot(), 'models', 'quin-align', 'lexicon.json.gz');

function readJson<S extends z.ZodType>(file: string, schema: S, what: string): z.infer<S> | null {
  if (!fs.existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw createError('MODEL_INVALID', `${file}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw createError(
      'MODEL_INVALID',
      `${file}: not a ${what} (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`,
    );
  return parsed.data;
}

let lexicon: Lexicon | undefined;
/** The aligner's lexicon, read once per process (~1–2 s). */
export function sharedLexicon(file = LEXICON_FILE): Lexicon {
  lexicon ??= Lexicon.read(file);
  return lexicon;
}

/**
 * The settings in force and where each comes from: the folder's verdict.json (fitted with the model),
 * else the built-in default. An evaluation passes its own to createVerdictStage.
 */
export function verdictSettings(agg: Aggregator | null): VerdictSettings & { origin: Record<keyof VerdictSettings, string> } {
  const origin = agg ? 'verdict.json' : 'default';
  const from = agg ?? VERDICT_DEFAULTS;
  const resolved: VerdictSettings = {
    depth: from.depth,
    sentences: from.sentences,
    passages: from.passages,
    judged: from.judged,
    commit: from.commit,
    // REFUTED's bar is SUPPORTED's unless verdict.json sets its own.
    commitRefuted: agg?.commit_refuted ?? from.commit,
    // With a contradicted detail shown, REFUTED's bar is its own where verdict.json sets one.
    commitRefutedDetail: agg?.commit_refuted_detail ?? agg?.commit_refuted ?? from.commit,
    mixed: from.mixed,
  };
  const keys = Object.keys(resolved) as (keyof VerdictSettings)[];
  return { ...resolved, origin: Object.fromEntries(keys.map((k) => [k, origin])) as Record<keyof VerdictSettings, string> };
}

/** The NLI folder's fitted decision (verdict.json), null where absent; a file the code cannot read by name is MODEL_INVALID. */
export function fittedAggregator(dir: string): Aggregator | null {
  const file = path.join(dir, 'verdict.json');
  const aggregator = readJson(file, AggregatorFile, 'verdict aggregator (version 5)');
  return aggregator && checkAggregator(aggregator, file, READING_FEATURES);
}

/** The stage, or null when no NLI model is configured (QUIN_NLI_MODEL=none, or no default model). */
export async function createVerdictStage(
  config: VerdictConfig,
  overrides: Partial<VerdictSettings> & { model?: string } = {},
): Promise<NliVerdictStage | null> {
  const cfg = overrides.model ? { ...config, nliModel: overrides.model } : config;
  const model = await loadRoleModel('nli', cfg);
  if (!model) return null;
  const { model: _m, ...settings } = overrides;
  const dir = resolveModelDir('nli', cfg);
  const aggregator = dir ? fittedAggregator(dir) : null;
  const { origin: _o, ...resolved } = verdictSettings(aggregator);
  const chosen = { ...resolved, ...settings };
  return new NliVerdictStage(new StanceJudge(model, sharedLexicon(), aggregator?.reading ?? DEFAULT_READING), chosen, aggregator);
}
