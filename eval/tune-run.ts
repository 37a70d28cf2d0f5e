/**
 * `quin eval tune-fusion`: retrieves each claim once from both indexes, then scores every fusion
 * setting on the claims it fits on and reports the best of each method with its dev score, at the
 * evaluation depth and at the product's retrieval depth (RETRIEVE_K); and cross-validates the
 * product's score-fusion weight in k folds.
 *
 * It fits on the held-out part of the train split (eval/splits.ts, trainPart): the shipped static
 * encoder was trained on the rest of train, and on those claims its dense run looks perfect. With
 * `--climate`, the Climate-FEVER claims of the same parts are scored too (its corpus in a workspace
 * of its own), so that the weight serves both.
 */
import path from 'node:path';
import type { Config } from '../lib/config';
import { loadClimateFever, loadScifactClaims, selectQueries, writeClimateCorpus, type EvalQuery } from './datasets';
import { memoEncoder } from './harness';
import { trainPart } from './splits';
import { formatTuneReport, type TuneReport } from './tune-report';
import { atDepth, bestOnTrain, collectRuns, crossValidateWeight, ndcgOf, scoreGrid, settingsGrid, type RawRuns } from './tune';
import { openWorkspace, fileSha256 } from './workspace';
import { DEFAULT_WINDOW } from '../crawler';
import { RETRIEVE_K } from '../ranking';

export interface TuneOptions {
  claimsFile: string;
  corpusFile: string;
  /** Climate-FEVER claims.jsonl: its held-out train and dev claims are scored with SciFact's. */
  climateFile?: string;
  base: Config;
  step: number;
  depth: number;
  /** k of the cross-validation of the score-fusion weight (0: none). */
  folds?: number;
  /** Claims fitted on: the held-out part of train (default) or the whole train split. */
  fitOn?: 'holdout' | 'train';
  workspaceRoot?: string;
}

interface Part {
  fit: EvalQuery[];
  dev: EvalQuery[];
}

function parts(all: EvalQuery[], dataset: 'scifact' | 'climate-fever', fitOn: 'holdout' | 'train'): Part {
  const train = selectQueries(all, 'train');
  return {
    fit: fitOn === 'train' ? train : train.filter((q) => trainPart(dataset, q.id) === 'holdout'),
    dev: selectQueries(all, 'dev'),
  };
}

/** Runs of one corpus's fit and dev claims, each carrying its corpus's snippet → document map. */
async function corpusRuns(
  opts: TuneOptions,
  dataset: 'scifact' | 'climate-fever',
  corpus: { file: string; format: string; window?: { size: number; stride: number; minChars: number } },
  p: Part,
): Promise<{ fit: RawRuns[]; dev: RawRuns[]; encoder: string }> {
  const ws = await openWorkspace({
    dataset,
    corpusFile: corpus.file,
    format: corpus.format,
    window: corpus.window,
    base: opts.base,
    root: opts.workspaceRoot,
  });
  try {
    const indexes = { ...ws.indexes, encoder: memoEncoder(ws.indexes.encoder) };
    const snippets = await ws.db.snippet.findMany({ select: { id: true, articleId: true } });
    const docs = new Map(snippets.map((s) => [s.id, ws.docIdOf(s.articleId) ?? String(s.articleId)]));
    const tag = (rs: RawRuns[]) => rs.map((r) => ({ ...r, docs, query: { ...r.query, id: `${dataset}:${r.query.id}` } }));
    return {
      fit: tag(await collectRuns(p.fit, indexes, opts.depth)),
      dev: tag(await collectRuns(p.dev, indexes, opts.depth)),
      encoder: ws.indexes.encoder.id,
    };
  } finally {
    await ws.close();
  }
}

export async function tuneFusion(opts: TuneOptions): Promise<TuneReport> {
  const fitOn = opts.fitOn ?? 'holdout';
  const sci = await corpusRuns(
    opts,
    'scifact',
    { file: opts.corpusFile, format: 'scifact' },
    parts(loadScifactClaims(opts.claimsFile), 'scifact', fitOn),
  );
  let fit = sci.fit;
  let dev = sci.dev;
  const datasets = [`SciFact (${sci.fit.length} fit, ${sci.dev.length} dev)`];
  if (opts.climateFile) {
    const { queries, claims } = loadClimateFever(opts.climateFile);
    const scratch = opts.workspaceRoot ?? path.join(opts.base.cacheDir, 'eval');
    const file = path.join(scratch, 'corpora', `climate-fever-${fileSha256(opts.climateFile).slice(0, 12)}.jsonl`);
    writeClimateCorpus(claims, file);
    const window = { ...DEFAULT_WINDOW, minChars: 1 };
    const cf = await corpusRuns(opts, 'climate-fever', { file, format: 'jsonl', window }, parts(queries, 'climate-fever', fitOn));
    fit = [...fit, ...cf.fit];
    dev = [...dev, ...cf.dev];
    datasets.push(`Climate-FEVER (${cf.fit.length} fit, ${cf.dev.length} dev)`);
  }
  const docOf = new Map<number, string>(); // every run carries its own corpus's map
  const grid = settingsGrid(opts.step);
  const depths = [...new Set([opts.depth, RETRIEVE_K])];
  const tables = depths.map((depth) => {
    const scores = scoreGrid(atDepth(fit, depth), atDepth(dev, depth), docOf, grid);
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
  // The product's weight: k-fold CV over the fit claims at the depth the product retrieves.
  const k = opts.folds ?? 0;
  const cv = k > 1 ? crossValidateWeight(atDepth(fit, RETRIEVE_K), docOf, k, opts.step) : null;
  const cvDev = cv
    ? Object.fromEntries(
        depths.map((depth) => [
          depth,
          ndcgOf(atDepth(dev, depth), docOf, { fusion: 'score', normalization: 'minmax', bm25Weight: cv.chosen }),
        ]),
      )
    : null;
  return formatTuneReport({
    train: fit.length,
    dev: dev.length,
    fitOn: `${fitOn === 'holdout' ? 'the held-out part of the train split' : 'the train split'}: ${datasets.join(', ')}`,
    encoder: sci.encoder,
    tables,
    cv: cv ? { k, depth: RETRIEVE_K, ...cv, dev: cvDev! } : null,
  });
}
