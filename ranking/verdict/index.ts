/**
 * ranking/verdict: the verdict stage, built from the configured NLI model (lib/models registry:
 * QUIN_NLI_MODEL, default per DEFAULT_MODELS), the files fitted for it in its folder — stance.json
 * (the stance classifier over alignment features and the model's probabilities) and verdict.json
 * (the calibrated claim-level aggregator, its commit threshold and the evidence it reads) — and the
 * aligner's lexicon (models/quin-align). An operator's explicit QUIN_VERDICT_* setting beats the
 * folder's value.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { Config } from '../../lib/config';
import { createError } from '../../lib/errors';
import { loadRoleModel, resolveModelDir } from '../../lib/models';
import { projectRoot } from '../../lib/paths';
import { checkStanceModel, StanceModelFile, type StanceModel } from './align/classifier';
import { Lexicon } from './align/lexicon';
import { AggregatorFile, checkAggregator, type Aggregator } from './decide';
import { StanceJudge } from './judge';
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
export { StanceJudge, mostProbable, neverFor, type Judgement, type JudgeInput } from './judge';
export { decide, claimFeatures, CLAIM_FEATURES, AggregatorFile, type Aggregator, type Decision, type JudgedItem } from './decide';
export { Lexicon } from './align/lexicon';
export { sameClaim, sameFrom, SAME_CLAIM_COVERAGE, type SameClaim } from './same-claim';

export type VerdictConfig = Pick<Config, 'nliModel' | 'encoderModel' | 'rerankerModel' | 'modelsDir' | 'ortThreads' | 'ortProvider'>;

/** Without a fitted verdict.json: read 8 results × 5 sentences, judge the best 6; commit at 0.5 (either side); MIXED when both sides reach 0.8. */
export const VERDICT_DEFAULTS = { depth: 8, sentences: 5, judged: 6, commit: 0.5, mixed: 0.8 } as const;

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
  const pick = (fallback: [number, string], fitted: number | undefined): [number, string] =>
    fitted !== undefined ? [fitted, 'verdict.json'] : fallback;
  const [depth, od] = pick([VERDICT_DEFAULTS.depth, 'default'], agg?.depth);
  const [sentences, os] = pick([VERDICT_DEFAULTS.sentences, 'default'], agg?.sentences);
  const [judged, oj] = pick([VERDICT_DEFAULTS.judged, 'default'], agg?.judged);
  const [commit, oc] = pick([VERDICT_DEFAULTS.commit, 'default'], agg?.commit);
  // REFUTED's bar is SUPPORTED's unless verdict.json sets its own.
  const [commitRefuted, ocr] = pick([commit, oc], agg?.commit_refuted);
  const [mixed, om] = pick([VERDICT_DEFAULTS.mixed, 'default'], agg?.mixed);
  return {
    depth,
    sentences,
    judged,
    commit,
    commitRefuted,
    mixed,
    origin: { depth: od, sentences: os, judged: oj, commit: oc, commitRefuted: ocr, mixed: om },
  };
}

/** The NLI folder's fitted files (stance.json, verdict.json), null where absent; a file the code cannot read by name is MODEL_INVALID. */
export function fittedFiles(dir: string): { stance: StanceModel | null; aggregator: Aggregator | null } {
  const stanceFile = path.join(dir, 'stance.json');
  const verdictFile = path.join(dir, 'verdict.json');
  const stance = readJson(stanceFile, StanceModelFile, 'stance classifier');
  const aggregator = readJson(verdictFile, AggregatorFile, 'verdict aggregator (version 3)');
  return {
    stance: stance && checkStanceModel(stance, stanceFile),
    aggregator: aggregator && checkAggregator(aggregator, verdictFile),
  };
}

/** The fitted files that apply to the NLI model `modelId`: files fitted for another model do not suit it (it then decides alone, under the default rule). */
export function filesFor(files: ReturnType<typeof fittedFiles>, modelId: string): ReturnType<typeof fittedFiles> {
  const stance = files.stance && (files.stance.nli === null || files.stance.nli === modelId) ? files.stance : null;
  return { stance, aggregator: stance || !files.stance ? files.aggregator : null };
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
  const { stance, aggregator } = filesFor(dir ? fittedFiles(dir) : { stance: null, aggregator: null }, model.id);
  const { origin: _o, ...resolved } = verdictSettings(aggregator);
  return new NliVerdictStage(new StanceJudge(model, sharedLexicon(), stance), { ...resolved, ...settings }, aggregator);
}
