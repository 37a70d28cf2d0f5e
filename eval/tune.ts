/**
 * Choosing the fusion: every (method, normalisation, BM25 weight) setting is scored on the train
 * queries from the same retrieved runs (retrieved once per query), the best setting on train is
 * picked, and its dev score is reported beside it: fit on train, check on dev. Pure apart from
 * `collectRuns`, which asks the indexes.
 */
import type { Hit, SearchIndexes } from '../indexer/types';
import { analyzeQuery, fuseRrf, fuseScores, singleRun, type FusedCandidate, type Normalization } from '../ranking';
import type { EvalQuery } from './datasets';
import { mean, ndcgAt } from './metrics';

export interface RawRuns {
  query: EvalQuery;
  bm25: Hit[];
  dense: Hit[];
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
  return raw.map((r) => ({ query: r.query, bm25: r.bm25.slice(0, k), dense: r.dense.slice(0, k) }));
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
  return mean(raw.map((r) => ndcgAt(docRanking(fuseWith(r, s), docOf, 10), r.query.relevant, 10)));
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
