/**
 * Choosing the fusion: every (method, normalisation, BM25 weight) setting is scored on the train
 * queries from the same retrieved runs (retrieved once per query), the best setting on train is
 * picked, and its dev score is reported beside it: fit on train, check on dev. Pure apart from
 * `collectRuns`, which asks the indexes.
 */
import crypto from 'node:crypto';
import type { Hit, SearchIndexes } from '../indexer/types';
import { analyzeQuery, fuseRrf, fuseScores, singleRun, type FusedCandidate, type Normalization } from '../ranking';
import type { EvalQuery } from './datasets';
import { mean, ndcgAt } from './metrics';

export interface RawRuns {
  query: EvalQuery;
  bm25: Hit[];
  dense: Hit[];
  /** Snippet → document of this query's corpus, when runs of several corpora are scored together. */
  docs?: ReadonlyMap<number, string>;
}

export interface FusionSetting {
  fusion: 'rrf' | 'score' | 'bm25' | 'dense';
  normalization?: Normalization;
  bm25Weight: number;
}

export interface SettingScore extends FusionSetting {
  train: number | null;
  dev: number | null;
}

export async function collectRuns(
  queries: readonly EvalQuery[],
  indexes: SearchIndexes,
  depth: number,
  maxChars = 1000,
): Promise<RawRuns[]> {
  const out: RawRuns[] = [];
  for (const query of queries) {
    const q = analyzeQuery(query.text, { maxChars });
    const [vec] = await indexes.encoder.embed([q.text]);
    const bm25 = await indexes.bm25.search({ text: q.text, terms: q.terms }, depth);
    const dense = indexes.dense && vec ? await indexes.dense.search(vec, depth) : [];
    out.push({ query, bm25, dense });
  }
  return out;
}

/** Documents in order of their best snippet. */
export function docRanking(fused: readonly FusedCandidate[], docOf: ReadonlyMap<number, string>, depth = 1000): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of fused) {
    const d = docOf.get(c.snippetId);
    if (d === undefined || seen.has(d)) continue;
    seen.add(d);
    out.push(d);
    if (out.length === depth) break;
  }
  return out;
}

/** Truncates each run to the first `k` hits (to see how a setting behaves at the product's depth). */
export function atDepth(raw: readonly RawRuns[], k: number): RawRuns[] {
  return raw.map((r) => ({ ...r, bm25: r.bm25.slice(0, k), dense: r.dense.slice(0, k) }));
}

export function fuseWith(r: RawRuns, s: FusionSetting, rrfK = 60): FusedCandidate[] {
  switch (s.fusion) {
    case 'bm25':
      return singleRun(r.bm25, 'bm25');
    case 'dense':
      return singleRun(r.dense, 'dense');
    case 'rrf':
      return fuseRrf(r.bm25, r.dense, rrfK, { bm25Weight: s.bm25Weight });
    case 'score':
      return fuseScores(r.bm25, r.dense, { bm25Weight: s.bm25Weight }, s.normalization ?? 'minmax');
  }
}

export function ndcgOf(raw: readonly RawRuns[], docOf: ReadonlyMap<number, string>, s: FusionSetting): number | null {
  return mean(raw.map((r) => ndcgAt(docRanking(fuseWith(r, s), r.docs ?? docOf, 10), r.query.relevant, 10)));
}

export function settingsGrid(step = 0.05): FusionSetting[] {
  const weights = Array.from({ length: Math.round(1 / step) + 1 }, (_, i) => Math.round(i * step * 1000) / 1000);
  return [
    { fusion: 'bm25', bm25Weight: 1 },
    { fusion: 'dense', bm25Weight: 0 },
    ...weights.map((w): FusionSetting => ({ fusion: 'rrf', bm25Weight: w })),
    ...(['minmax', 'max'] as const).flatMap((normalization) =>
      weights.map((w): FusionSetting => ({ fusion: 'score', normalization, bm25Weight: w })),
    ),
  ];
}

export function scoreGrid(
  train: readonly RawRuns[],
  dev: readonly RawRuns[],
  docOf: ReadonlyMap<number, string>,
  grid = settingsGrid(),
): SettingScore[] {
  return grid.map((s) => ({ ...s, train: ndcgOf(train, docOf, s), dev: ndcgOf(dev, docOf, s) }));
}

/** The best setting of a method on train (ties: the one closer to equal weights, then the first). */
export function bestOnTrain(scores: readonly SettingScore[], pick: (s: SettingScore) => boolean): SettingScore | undefined {
  return scores.filter(pick).reduce<SettingScore | undefined>((best, s) => {
    if (s.train === null) return best;
    if (!best || best.train === null || s.train > best.train + 1e-12) return s;
    if (Math.abs(s.train - best.train) <= 1e-12 && Math.abs(s.bm25Weight - 0.5) < Math.abs(best.bm25Weight - 0.5)) return s;
    return best;
  }, undefined);
}

// --- k-fold cross-validation of the score-fusion weight --------------------------------------

export interface CvFold {
  fold: number;
  queries: number;
  /** The weight best on the other folds. */
  chosen: number;
  /** Its nDCG@10 on this fold. */
  heldOut: number;
}

export interface CvResult {
  folds: CvFold[];
  /** Per weight: mean and standard deviation over folds of the fold's nDCG@10. */
  curve: { bm25Weight: number; mean: number; sd: number }[];
  /** Held-out nDCG@10 of the per-fold choices: mean and standard deviation over folds. */
  heldOut: { mean: number; sd: number };
  /** The weight to use, and why. */
  chosen: number;
  rule: string;
}

/** Fold of a query: a hash of its id, so that the folds do not depend on file order. */
export function foldOf(id: string, k: number): number {
  return crypto.createHash('sha256').update(`fold:${id}`).digest().readUInt32BE(0) % k;
}

/** "Simpler" weights first: a multiple of 0.1 before a finer one, then nearer equal weights. */
function simpler(a: number, b: number): number {
  const coarse = (w: number) => (Math.abs(w * 10 - Math.round(w * 10)) < 1e-9 ? 0 : 1);
  return coarse(a) - coarse(b) || Math.abs(a - 0.5) - Math.abs(b - 0.5);
}

const meanOf = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
const sdOf = (xs: readonly number[]) => Math.sqrt(meanOf(xs.map((x) => (x - meanOf(xs)) ** 2)));

/**
 * k-fold cross-validation of the BM25 weight of min-max score fusion over `raw` (the train claims):
 * each fold's weight is chosen on the other folds and scored on it. When every fold chooses the same
 * weight it is the answer; when they disagree, the simplest weight whose mean over folds is within one
 * standard error of the best mean (the one-standard-error rule).
 */
export function crossValidateWeight(raw: readonly RawRuns[], docOf: ReadonlyMap<number, string>, k: number, step = 0.05): CvResult {
  const weights = Array.from({ length: Math.round(1 / step) + 1 }, (_, i) => Math.round(i * step * 1000) / 1000);
  const ndcg = raw.map((r) =>
    weights.map((w) =>
      ndcgAt(
        docRanking(fuseWith(r, { fusion: 'score', normalization: 'minmax', bm25Weight: w }), r.docs ?? docOf, 10),
        r.query.relevant,
        10,
      ),
    ),
  );
  const fold = raw.map((r) => foldOf(r.query.id, k));
  const meanOver = (keep: (i: number) => boolean, wi: number) => meanOf(ndcg.filter((_, i) => keep(i)).map((row) => row[wi]!));
  const best = (keep: (i: number) => boolean) =>
    weights.reduce((b, w, wi) => {
      const m = meanOver(keep, wi);
      const bm = meanOver(keep, weights.indexOf(b));
      return m > bm + 1e-12 || (Math.abs(m - bm) <= 1e-12 && Math.abs(w - 0.5) < Math.abs(b - 0.5)) ? w : b;
    }, weights[0]!);
  const folds: CvFold[] = Array.from({ length: k }, (_, f) => {
    const chosen = best((i) => fold[i] !== f);
    return {
      fold: f,
      queries: fold.filter((x) => x === f).length,
      chosen,
      heldOut: meanOver((i) => fold[i] === f, weights.indexOf(chosen)),
    };
  });
  const curve = weights.map((w, wi) => {
    const perFold = Array.from({ length: k }, (_, f) => meanOver((i) => fold[i] === f, wi));
    return { bm25Weight: w, mean: meanOf(perFold), sd: sdOf(perFold) };
  });
  const heldOut = { mean: meanOf(folds.map((f) => f.heldOut)), sd: sdOf(folds.map((f) => f.heldOut)) };
  const choices = new Set(folds.map((f) => f.chosen));
  if (choices.size === 1) return { folds, curve, heldOut, chosen: folds[0]!.chosen, rule: `all ${k} folds chose it` };
  const top = curve.reduce((a, b) => (b.mean > a.mean ? b : a));
  const se = top.sd / Math.sqrt(k);
  const near = curve.filter((c) => c.mean >= top.mean - se).map((c) => c.bm25Weight);
  const chosen = [...near].sort(simpler)[0]!;
  return {
    folds,
    curve,
    heldOut,
    chosen,
    rule: `folds chose ${[...choices].sort().join(', ')}: the simplest weight within one standard error (${se.toFixed(4)}) of the best mean (${top.bm25Weight})`,
  };
}
