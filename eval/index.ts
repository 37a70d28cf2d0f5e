/**
 * eval/: `quin eval` — retrieval metrics on SciFact and Climate-FEVER through the search pipeline,
 * verdict metrics on our news claim set (eval/news), fusion tuning on our train split, and
 * Anserini-style regression files.
 */
export { evaluate, type EvaluateOptions, type EvaluateOutcome } from './evaluate';
export { runRegressions, loadRegressions, type Check, type RegressionFile } from './regression';
export { tuneFusion } from './tune-run';
export { evidenceWeights, type EvidenceWeightsReport } from './evidence-weights';
export { EVAL_RUNS, EVAL_SECTIONS, type EvalRun, type EvalSection } from './runs';
export type { DatasetName, EvalQuery } from './datasets';
export { METRIC_KEYS, type RunMetrics } from './harness';
export { evaluateNews, type NewsEvalOptions, type NewsEvalOutcome } from './news/evaluate';
export {
  verdictMetrics,
  riskCoverage,
  classification,
  type Prediction,
  type VerdictMetrics,
  type RiskCoverageRow,
} from './verdict-metrics';
