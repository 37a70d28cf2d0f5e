/**
 * `quin eval tune-fusion`: retrieves each SciFact claim once from both indexes, then scores every
 * fusion setting on the train claims and reports the best of each method with its dev score, at the
 * evaluation depth and at the product's retrieval depth (QUIN_RETRIEVE_K).
 */
import type { Config } from '../lib/config';
import { loadScifactClaims, selectQueries } from './datasets';
import { memoEncoder } from './harness';
import { formatTuneReport, type TuneReport } from './tune-report';
import { atDepth, bestOnTrain, collectRuns, crossValidateWeight, ndcgOf, scoreGrid, settingsGrid } from './tune';
import { openWorkspace } from './workspace';

export interface TuneOptions {
  claimsFile: string;
  corpusFile: string;
  base: Config;
  step: number;
  depth: number;
  /** k of the cross-validation of the score-fusion weight over the train claims (0: none). */
  folds?: number;
  workspaceRoot?: string;
}

export async function tuneFusion(opts: TuneOptions): Promise<TuneReport> {
  const all = loadScifactClaims(opts.claimsFile);
  const train = selectQueries(all, 'train');
  const dev = selectQueries(all, 'dev');
  const ws = await openWorkspace({
    dataset: 'scifact',
    corpusFile: opts.corpusFile,
    format: 'scifact',
    base: opts.base,
    root: opts.workspaceRoot,
  });
  try {
    const indexes = { ...ws.indexes, encoder: memoEncoder(ws.indexes.encoder) };
    const snippets = await ws.db.snippet.findMany({ select: { id: true, articleId: true } });
    const docOf = new Map(snippets.map((s) => [s.id, ws.docIdOf(s.articleId) ?? String(s.articleId)]));
    const rawTrain = await collectRuns(train, indexes, opts.depth);
    const rawDev = await collectRuns(dev, indexes, opts.depth);
    const grid = settingsGrid(opts.step);
    const depths = [...new Set([opts.depth, opts.base.retrieveK])];
    const tables = depths.map((depth) => {
      const scores = scoreGrid(atDepth(rawTrain, depth), atDepth(rawDev, depth), docOf, grid);
      const best = {
        bm25: bestOnTrain(scores, (s) => s.fusion === 'bm25')!,
        dense: bestOnTrain(scores, (s) => s.fusion === 'dense')!,
        rrf_equal: scores.find((s) => s.fusion === 'rrf' && s.bm25Weight === 0.5)!,
        rrf: bestOnTrain(scores, (s) => s.fusion === 'rrf')!,
        score_minmax: bestOnTrain(scores, (s) => s.fusion === 'score' && s.normalization === 'minmax')!,
        score_max: bestOnTrain(scores, (s) => s.fusion === 'score' && s.normalization === 'max')!,
      };
      return { depth, best, scores };
    });
    // The product's weight: k-fold CV over the train claims at the depth the product retrieves.
    const k = opts.folds ?? 0;
    const cv = k > 1 ? crossValidateWeight(atDepth(rawTrain, opts.base.retrieveK), docOf, k, opts.step) : null;
    const cvDev = cv
      ? Object.fromEntries(
          [...new Set([opts.depth, opts.base.retrieveK])].map((depth) => [
            depth,
            ndcgOf(atDepth(rawDev, depth), docOf, { fusion: 'score', normalization: 'minmax', bm25Weight: cv.chosen }),
          ]),
        )
      : null;
    return formatTuneReport({
      train: train.length,
      dev: dev.length,
      encoder: ws.indexes.encoder.id,
      tables,
      cv: cv ? { k, depth: opts.base.retrieveK, ...cv, dev: cvDev! } : null,
    });
  } finally {
    await ws.close();
  }
}
