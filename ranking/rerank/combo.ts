/**
 * The feature-combination layer of the reranking stage (pure): a linear score over the
 * cross-encoder's score and the first-stage / sentence-similarity features (features.ts), each
 * normalised per query over the reranked candidates, then min-max scaled to [0, 1] so the result is a
 * non-negative relevance for the time decay.
 *
 * The weights are learned by training/fit-rerank-combo.ts on the SciFact train split and the variant
 * (normalisation, feature set) is chosen on the dev split; they live in `combo.json` beside the model
 * they were fitted for (models/quin-reranker/combo.json) and apply only to that model: a supplied
 * Hugging Face cross-encoder has no combo.json and keeps the plain weighted mix (combine.ts).
 */
import { z } from 'zod';
import { minMax } from './combine';
import { FEATURE_NAMES, type Features } from './features';

export type ComboNormalization = 'zscore' | 'minmax';

export interface ComboWeights {
  normalization: ComboNormalization;
  /** Weight of the model's own score. */
  model: number;
  /** Weights of the features by name (absent = 0). */
  features: Partial<Record<keyof Features | ArticleFeature, number>>;
  /** Candidates it was fitted to rerank (replaces RERANK_DEFAULT_DEPTH while it is used). */
  depth?: number;
}

export function zScore(xs: readonly number[]): number[] {
  if (!xs.length) return [];
  const finite = xs.map((x) => (Number.isFinite(x) ? x : 0));
  const mean = finite.reduce((s, x) => s + x, 0) / finite.length;
  const sd = Math.sqrt(finite.reduce((s, x) => s + (x - mean) ** 2, 0) / finite.length);
  return finite.map((x) => (sd > 1e-12 ? (x - mean) / sd : 0));
}

export function normalize(xs: readonly number[], how: ComboNormalization): number[] {
  return how === 'zscore' ? zScore(xs) : minMax(xs);
}

/**
 * Features of a candidate's article among the reranked candidates (the pipeline keeps one snippet per
 * article, so an abstract whose other windows also match is likelier relevant): the best model score
 * of its article's candidates and how many of them were reranked.
 */
export const ARTICLE_FEATURES = ['art_model_max', 'art_count'] as const;
export type ArticleFeature = (typeof ARTICLE_FEATURES)[number];

export function articleFeatures(articleIds: readonly (number | string)[], model: readonly number[]): Record<ArticleFeature, number[]> {
  const best = new Map<number | string, number>();
  const count = new Map<number | string, number>();
  articleIds.forEach((a, i) => {
    best.set(a, Math.max(best.get(a) ?? -Infinity, model[i]!));
    count.set(a, (count.get(a) ?? 0) + 1);
  });
  return { art_model_max: articleIds.map((a) => best.get(a)!), art_count: articleIds.map((a) => count.get(a)!) };
}

/** The raw (unscaled) combined score of each candidate. */
export function comboRaw(
  model: readonly number[],
  features: readonly Features[],
  articleIds: readonly (number | string)[],
  w: ComboWeights,
): number[] {
  if (model.length !== features.length || model.length !== articleIds.length)
    throw new RangeError(`${model.length} model scores for ${features.length} candidates`);
  const out = normalize(model, w.normalization).map((x) => w.model * x);
  const add = (wf: number | undefined, xs: number[]) => {
    if (wf) normalize(xs, w.normalization).forEach((x, i) => (out[i]! += wf * x));
  };
  for (const name of FEATURE_NAMES)
    add(
      w.features[name],
      features.map((f) => f[name]),
    );
  if (ARTICLE_FEATURES.some((n) => w.features[n])) {
    const art = articleFeatures(articleIds, model);
    for (const name of ARTICLE_FEATURES) add(w.features[name], art[name]);
  }
  return out;
}

/** Relevance in [0, 1] per candidate (order = comboRaw's). */
export function comboScores(
  model: readonly number[],
  features: readonly Features[],
  articleIds: readonly (number | string)[],
  w: ComboWeights,
): number[] {
  return minMax(comboRaw(model, features, articleIds, w));
}

const finite = (what: string) =>
  z.number({ error: `${what} must be a finite number` }).refine(Number.isFinite, `${what} must be a finite number`);
const KNOWN_FEATURES: readonly string[] = [...FEATURE_NAMES, ...ARTICLE_FEATURES];

/** combo.json, as training/fit-rerank-combo.ts writes it. */
export const comboWeightsSchema = z.object({
  normalization: z.enum(['zscore', 'minmax'], { error: (i) => `normalization must be zscore or minmax, not ${String(i.input)}` }),
  model: finite('model weight'),
  features: z
    .record(z.string(), z.unknown())
    .default({})
    .transform((f, ctx) => {
      const out: ComboWeights['features'] = {};
      for (const [k, x] of Object.entries(f)) {
        if (!KNOWN_FEATURES.includes(k))
          ctx.addIssue({ code: 'custom', message: `unknown feature "${k}" (known: ${KNOWN_FEATURES.join(', ')})` });
        else if (typeof x !== 'number' || !Number.isFinite(x))
          ctx.addIssue({ code: 'custom', message: `feature "${k}" weight must be a finite number` });
        else out[k as keyof ComboWeights['features']] = x;
      }
      return out;
    }),
  depth: z.number().int('depth must be a positive integer').min(1, 'depth must be a positive integer').optional(),
});

/** Checks a parsed combo.json; throws a RangeError naming what is wrong. */
export function parseComboWeights(value: unknown): ComboWeights {
  const parsed = comboWeightsSchema.safeParse(value);
  if (!parsed.success) throw new RangeError(`combo weights: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const { depth, ...rest } = parsed.data;
  return { ...rest, ...(depth !== undefined ? { depth } : {}) };
}
