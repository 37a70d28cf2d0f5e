/**
 * Verdict metrics, pure, shared by `quin eval news`, the SciFact and Climate-FEVER verdict sections
 * and cross-validation: the confusion matrix (gold × predicted, every predicted label shown),
 * accuracy and macro-F1 over the gold labels, the precision of each committed label, how many true
 * claims were called false, coverage, and the risk–coverage table.
 *
 * Terms. A prediction *commits* when its label is one of `committed` (for verdicts: SUPPORTED,
 * REFUTED, MIXED); the rest abstain. For scoring, a predicted label is first mapped through
 * `scoreAs` (MIXED → NOT_ENOUGH_EVIDENCE: the gold sets have no MIXED label), so a committed MIXED
 * is correct exactly when the gold label is the abstention label. Precision of committed verdicts =
 * correct commits / commits; coverage = commits / all predictions.
 *
 * Risk–coverage: commits sorted by confidence (highest first; ties by input order); at coverage c the
 * round(c·n) most confident commits are kept (n = all predictions) and their precision reported.
 * Levels the model never reaches (it commits on fewer claims) have precision null.
 */

export interface Prediction {
  gold: string;
  predicted: string;
  /** The verdict's confidence (higher = surer); ranks commits in the risk–coverage table. */
  confidence: number;
}

export interface Classification {
  n: number;
  accuracy: number | null;
  macro_f1: number | null;
  /** confusion[gold][predicted] */
  confusion: Record<string, Record<string, number>>;
}

export interface CommitStats {
  n: number;
  correct: number;
  precision: number | null;
}

export interface RiskCoverageRow {
  /** Target share of all predictions that commit, 0.1 … 1. */
  coverage: number;
  /** Commits kept at this level (the most confident ones). */
  committed: number;
  /** Confidence of the last commit kept: the threshold that gives this coverage. */
  threshold: number | null;
  precision: number | null;
}

export interface VerdictMetricsOptions {
  /** Gold labels: accuracy and macro-F1 are over these (a label never seen nor predicted has F1 0). */
  labels: readonly string[];
  /** Predicted labels that commit (the rest abstain). */
  committed: readonly string[];
  /** Predicted label → the gold label it is scored as (e.g. MIXED → NOT_ENOUGH_EVIDENCE). */
  scoreAs?: Readonly<Record<string, string>>;
  /** Extra predicted labels shown as confusion-matrix columns (e.g. MIXED). */
  shown?: readonly string[];
  /** The "true claim called false" count: gold `from` predicted `to` (e.g. SUPPORTED → REFUTED). */
  flip?: { from: string; to: string };
  /** Risk–coverage levels (default 0.1, 0.2 … 1). */
  levels?: readonly number[];
}

export interface VerdictMetrics extends Classification {
  /** Per gold label: precision, recall, F1 and support, after `scoreAs`. */
  per_label: Record<string, { precision: number | null; recall: number | null; f1: number; support: number }>;
  /** Per committed label: how many, how many correct, precision. */
  precision_committed: Record<string, CommitStats>;
  /** All commits together, and the share of predictions that commit. */
  committed: CommitStats & { coverage: number | null };
  /** Gold `flip.from` predicted `flip.to`: count, of how many gold `flip.from`, rate. */
  flipped: { from: string; to: string; n: number; of: number; rate: number | null } | null;
  risk_coverage: RiskCoverageRow[];
}

export const DEFAULT_LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] as const;

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const ratio = (a: number, b: number) => (b > 0 ? r4(a / b) : null);

/** Accuracy, macro-F1 over `labels` and the confusion matrix (columns: `labels` then `shown`). */
export function classification(
  gold: readonly string[],
  pred: readonly string[],
  labels: readonly string[],
  shown: readonly string[] = [],
): Classification {
  const columns = [...labels, ...shown.filter((s) => !labels.includes(s))];
  const confusion = Object.fromEntries(labels.map((g) => [g, Object.fromEntries(columns.map((p) => [p, 0]))])) as Record<
    string,
    Record<string, number>
  >;
  gold.forEach((g, i) => {
    const p = pred[i]!;
    if (confusion[g] && p in confusion[g]!) confusion[g]![p]!++;
  });
  if (!gold.length) return { n: 0, accuracy: null, macro_f1: null, confusion };
  const f1s = labels.map((l) => f1Of(gold, pred, l));
  return {
    n: gold.length,
    accuracy: r4(gold.filter((g, i) => g === pred[i]).length / gold.length),
    macro_f1: r4(f1s.reduce((a, b) => a + b, 0) / labels.length),
    confusion,
  };
}

function counts(gold: readonly string[], pred: readonly string[], l: string) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  gold.forEach((g, i) => {
    if (g === l && pred[i] === l) tp++;
    else if (pred[i] === l) fp++;
    else if (g === l) fn++;
  });
  return { tp, fp, fn };
}

function f1Of(gold: readonly string[], pred: readonly string[], l: string): number {
  const { tp, fp, fn } = counts(gold, pred, l);
  return tp === 0 ? 0 : (2 * tp) / (2 * tp + fp + fn);
}

/** Whether a prediction is right once its label is mapped through `scoreAs`. */
export function isCorrect(p: Prediction, scoreAs: Readonly<Record<string, string>> = {}): boolean {
  return (scoreAs[p.predicted] ?? p.predicted) === p.gold;
}

/** Precision of the most confident commits at each coverage level (see the file comment). */
export function riskCoverage(
  items: readonly Prediction[],
  committed: readonly string[],
  scoreAs: Readonly<Record<string, string>> = {},
  levels: readonly number[] = DEFAULT_LEVELS,
): RiskCoverageRow[] {
  const commits = items
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => committed.includes(p.predicted))
    .sort((a, b) => b.p.confidence - a.p.confidence || a.i - b.i);
  return levels.map((coverage) => {
    const want = Math.round(coverage * items.length);
    if (want > commits.length || want === 0)
      return { coverage, committed: Math.min(want, commits.length), threshold: null, precision: null };
    const kept = commits.slice(0, want);
    return {
      coverage,
      committed: want,
      threshold: r4(kept[want - 1]!.p.confidence),
      precision: ratio(kept.filter(({ p }) => isCorrect(p, scoreAs)).length, want),
    };
  });
}

export function verdictMetrics(items: readonly Prediction[], opts: VerdictMetricsOptions): VerdictMetrics {
  const scoreAs = opts.scoreAs ?? {};
  const gold = items.map((p) => p.gold);
  const raw = items.map((p) => p.predicted);
  const scored = items.map((p) => scoreAs[p.predicted] ?? p.predicted);
  // Accuracy and F1 on the scored labels; the matrix shows the raw ones (MIXED in its own column).
  const base = classification(gold, scored, opts.labels);
  const shown = [...new Set([...(opts.shown ?? []), ...raw.filter((p) => !opts.labels.includes(p))])];
  const { confusion } = classification(gold, raw, opts.labels, shown);
  const per_label = Object.fromEntries(
    opts.labels.map((l) => {
      const { tp, fp, fn } = counts(gold, scored, l);
      return [l, { precision: ratio(tp, tp + fp), recall: ratio(tp, tp + fn), f1: r4(f1Of(gold, scored, l)), support: tp + fn }];
    }),
  );
  const stats = (keep: (p: Prediction) => boolean): CommitStats => {
    const chosen = items.filter(keep);
    const correct = chosen.filter((p) => isCorrect(p, scoreAs)).length;
    return { n: chosen.length, correct, precision: ratio(correct, chosen.length) };
  };
  const precision_committed = Object.fromEntries(opts.committed.map((l) => [l, stats((p) => p.predicted === l)]));
  const all = stats((p) => opts.committed.includes(p.predicted));
  let flipped: VerdictMetrics['flipped'] = null;
  if (opts.flip) {
    const { from, to } = opts.flip;
    const of = gold.filter((g) => g === from).length;
    const n = items.filter((p) => p.gold === from && p.predicted === to).length;
    flipped = { from, to, n, of, rate: ratio(n, of) };
  }
  return {
    ...base,
    confusion,
    per_label,
    precision_committed,
    committed: { ...all, coverage: ratio(all.n, items.length) },
    flipped,
    risk_coverage: riskCoverage(items, opts.committed, scoreAs, opts.levels),
  };
}

/** The risk–coverage table as text lines (coverage, commits, threshold, precision). */
export function formatRiskCoverage(rows: readonly RiskCoverageRow[]): string[] {
  const f = (x: number | null) => (x === null ? '–' : x.toFixed(4));
  return [
    'coverage  committed  threshold  precision',
    ...rows.map(
      (r) =>
        `${`${Math.round(r.coverage * 100)}%`.padStart(8)}  ${String(r.committed).padStart(9)}  ${f(r.threshold).padStart(9)}  ${f(r.precision).padStart(9)}`,
    ),
  ];
}
