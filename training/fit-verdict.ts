/**
 * Chooses the verdict aggregation from training/verdict-features.ts's dump, two families:
 * - thresholds (ranking/verdict/aggregate.ts): for each structural variant (results read, sentences
 *   per result, mean or max pooling) the thresholds (min evidence, refute weight; MIXED off, SciFact
 *   claims are never mixed) are fitted on the TRAIN split's claim-level macro-F1;
 * - the learned aggregator (ranking/verdict/learned.ts), fitted on train for each (results, sentences).
 * The variant, across both families, is chosen on the dev split's end-to-end macro-F1; end to end
 * (our retrieval) and oracle (gold rationales) are reported on both splits. --write stores the
 * choice as models/quin-nli/verdict.json (ranking/verdict/fitted.ts reads it), marked as fitted on
 * the stance head's probabilities when the dump's judgements were.
 *
 *   npx tsx training/fit-verdict.ts [features=.cache/training/verdict-features.jsonl] [--write]
 */
import fs from 'node:fs';
import path from 'node:path';
import { CLAIM_LABELS, claimLabelOf, classification } from '../eval/verdict';
import { aggregate, LEARNED_LABELS, verdictFeatures, type JudgedSentence, type LearnedAggregator, type VerdictThresholds } from '../ranking/verdict';
import type { NliProbs } from '../lib/models';

interface Item {
  rank: number;
  s: number;
  score: number;
  p: NliProbs;
}
interface Claim {
  id: string;
  split: string;
  /** The judging model's id (…+stance-head when the stance head refined the probabilities). */
  nli?: string;
  label: string | null;
  e2e: Item[];
  oracle: NliProbs[];
}

function judgedOf(items: readonly Item[], depth: number, perResult: number): JudgedSentence[] {
  const top = items.filter((it) => it.rank < depth && it.s < perResult);
  const best = Math.max(0, ...top.map((it) => it.score));
  return top.map((it) => ({ probs: it.p, relevance: best > 0 ? it.score / best : 1, recency: 1 }));
}

function macroF1(claims: readonly Claim[], judged: readonly JudgedSentence[][], t: VerdictThresholds): number {
  const gold = claims.map((c) => c.label ?? 'NEI');
  const pred = judged.map((j) => claimLabelOf(aggregate(j, t).label));
  return classification(gold, pred, CLAIM_LABELS).macro_f1 ?? 0;
}

function fitThresholds(claims: readonly Claim[], judged: readonly JudgedSentence[][], pooling: 'mean' | 'max'): VerdictThresholds & { f1: number } {
  let best: VerdictThresholds & { f1: number } = { minEvidence: 0, mixedRatio: 1.01, refuteWeight: 1, pooling, f1: -1 };
  for (let m = 0; m <= 90; m += 2) {
    for (const refuteWeight of [1, 1.25, 1.5, 1.75, 2, 2.5, 3]) {
      const t: VerdictThresholds = { minEvidence: m / 100, mixedRatio: 1.01, refuteWeight, pooling };
      const f1 = macroF1(claims, judged, t);
      if (f1 > best.f1 + 1e-9) best = { ...t, f1 };
    }
  }
  return best;
}

/** The product's claim-level features (ranking/verdict/learned.ts); zeros when there is no evidence. */
function claimFeatures(j: readonly JudgedSentence[]): number[] {
  return verdictFeatures(j) ?? [1, 0, 0, 0, 0, 0, 0];
}

/** Class-balanced multinomial logistic regression (full batch, Adam, 1500 steps) over LEARNED_LABELS. */
function fitLogistic(X: number[][], y: number[], l2: number): number[][] {
  const K = 3;
  const D = X[0]!.length;
  const W = Array.from({ length: K }, () => new Array<number>(D).fill(0));
  const m = W.map((row) => row.map(() => 0));
  const v = W.map((row) => row.map(() => 0));
  const counts = [0, 1, 2].map((k) => y.filter((c) => c === k).length);
  const cw = counts.map((c) => X.length / (K * Math.max(1, c)));
  for (let it = 1; it <= 1500; it++) {
    const G = W.map((row) => row.map((x) => l2 * x));
    X.forEach((x, i) => {
      const z = W.map((wk) => wk.reduce((a, w, d) => a + w * x[d]!, 0));
      const mx = Math.max(...z);
      const e = z.map((q) => Math.exp(q - mx));
      const sum = e.reduce((a, b) => a + b, 0);
      for (let k = 0; k < K; k++) {
        const g = (cw[y[i]!]! * (e[k]! / sum - (y[i] === k ? 1 : 0))) / X.length;
        for (let d = 0; d < D; d++) G[k]![d]! += g * x[d]!;
      }
    });
    for (let k = 0; k < K; k++) {
      for (let d = 0; d < D; d++) {
        m[k]![d] = 0.9 * m[k]![d]! + 0.1 * G[k]![d]!;
        v[k]![d] = 0.999 * v[k]![d]! + 0.001 * G[k]![d]! ** 2;
        W[k]![d]! -= (0.05 * (m[k]![d]! / (1 - 0.9 ** it))) / (Math.sqrt(v[k]![d]! / (1 - 0.999 ** it)) + 1e-8);
      }
    }
  }
  return W;
}

function main() {
  const file = path.resolve(process.argv[2] ?? '.cache/training/verdict-features.jsonl');
  const claims = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Claim);
  const train = claims.filter((c) => c.split === 'train');
  const dev = claims.filter((c) => c.split === 'dev');
  console.log(`${train.length} train, ${dev.length} dev claims`);
  const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
  const rows: { variant: string; depth: number; per: number; t: VerdictThresholds; train: number; dev: number }[] = [];
  for (const pooling of ['mean', 'max'] as const) {
    for (const depth of [1, 2, 3, 5, 10]) {
      for (const per of [1, 2, 3]) {
        const jt = train.map((c) => judgedOf(c.e2e, depth, per));
        const jd = dev.map((c) => judgedOf(c.e2e, depth, per));
        const t = fitThresholds(train, jt, pooling);
        const { f1: _f1, ...fittedT } = t;
        const row = { variant: `e2e ${pooling} depth ${depth} × ${per}`, depth, per, t: fittedT, train: r4(t.f1), dev: r4(macroF1(dev, jd, t)) };
        rows.push(row);
        console.log(`${row.variant}: min ${t.minEvidence} refute ×${t.refuteWeight}: train ${row.train} dev ${row.dev}`);
      }
    }
    const ot = train.map((c) => c.oracle.map((p) => ({ probs: p, relevance: 1, recency: 1 })));
    const od = dev.map((c) => c.oracle.map((p) => ({ probs: p, relevance: 1, recency: 1 })));
    const t = fitThresholds(train, ot, pooling);
    console.log(`oracle ${pooling}: min ${t.minEvidence} refute ×${t.refuteWeight}: train ${r4(t.f1)} dev ${r4(macroF1(dev, od, t))}`);
  }
  // The learned aggregator: fitted on train for each (depth, sentences), chosen on dev.
  const toLabel: Record<string, number> = { SUPPORT: 0, CONTRADICT: 1, NEI: 2 };
  const learned: { depth: number; per: number; model: LearnedAggregator; train: number; dev: number }[] = [];
  for (const [depth, per] of [[1, 2], [2, 2], [3, 2], [5, 2], [1, 3], [2, 3], [3, 3], [5, 3]] as const) {
    // With --with-oracle the train claims' oracle evidence joins the training rows (one model for both settings).
    const X = train.map((c) => claimFeatures(judgedOf(c.e2e, depth, per)));
    const y = train.map((c) => toLabel[c.label ?? 'NEI']!);
    if (process.argv.includes('--with-oracle')) train.forEach((c) => (X.push(claimFeatures(c.oracle.map((p) => ({ probs: p, relevance: 1, recency: 1 })))), y.push(toLabel[c.label ?? 'NEI']!)));
    const model = { weights: fitLogistic(X, y, 0) };
    const t: VerdictThresholds = { minEvidence: 0, mixedRatio: 1.01, learned: model };
    const f = (cs: Claim[]) => r4(macroF1(cs, cs.map((c) => judgedOf(c.e2e, depth, per)), t));
    const row = { depth, per, model, train: f(train), dev: f(dev) };
    learned.push(row);
    const ol = (cs: Claim[]) => r4(macroF1(cs, cs.map((c) => c.oracle.map((p) => ({ probs: p, relevance: 1, recency: 1 }))), t));
    console.log(`learned depth ${depth} × ${per}: train ${row.train} dev ${row.dev} (oracle train ${ol(train)} dev ${ol(dev)})`);
  }
  const pick = learned.reduce((a, b) => (b.dev > a.dev ? b : a));
  const ot = train.map((c) => c.oracle.map((p) => ({ probs: p, relevance: 1, recency: 1 })));
  const od = dev.map((c) => c.oracle.map((p) => ({ probs: p, relevance: 1, recency: 1 })));
  const lt: VerdictThresholds = { minEvidence: 0, mixedRatio: 1.01, learned: pick.model };
  console.log(`learned, chosen depth ${pick.depth} × ${pick.per}: end to end train ${pick.train} dev ${pick.dev}; oracle train ${r4(macroF1(train, ot, lt))} dev ${r4(macroF1(dev, od, lt))}`);
  const best = rows.reduce((a, b) => (b.dev > a.dev ? b : a));
  console.log(`thresholds, chosen ${best.variant}: ${JSON.stringify(best.t)} end to end train ${best.train} dev ${best.dev}; oracle train ${r4(macroF1(train, ot, best.t))} dev ${r4(macroF1(dev, od, best.t))}`);
  const useLearned = pick.dev > best.dev;
  console.log(`chosen on dev: ${useLearned ? `learned depth ${pick.depth} × ${pick.per} (${pick.dev})` : `thresholds ${best.variant} (${best.dev})`}`);
  if (process.argv.includes('--write')) {
    const out = path.resolve('models/quin-nli/verdict.json');
    const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
    const judge = claims[0]?.nli ?? 'unknown';
    const fitted = { on: 'SciFact claims_train.jsonl, train split (eval/splits.ts)', chosen_on: 'dev split, among both families', judged_by: judge, variants: rows.length + learned.length };
    const doc = useLearned
      ? {
          labels: LEARNED_LABELS,
          features: ['bias', 'mean_entail', 'mean_contra', 'max_entail', 'max_contra', 'top_entail', 'top_contra'],
          weights: pick.model.weights.map((row) => row.map(r6)),
          depth: pick.depth,
          sentences: pick.per,
          stance_head: judge.endsWith('+stance-head'),
          fitted: { ...fitted, class_balanced: true, macro_f1_train: pick.train, macro_f1_dev: pick.dev },
        }
      : {
          thresholds: { minEvidence: best.t.minEvidence, mixedRatio: best.t.mixedRatio, refuteWeight: best.t.refuteWeight ?? 1, pooling: best.t.pooling ?? 'mean' },
          depth: best.depth,
          sentences: best.per,
          stance_head: judge.endsWith('+stance-head'),
          fitted: { ...fitted, macro_f1_train: best.train, macro_f1_dev: best.dev },
        };
    fs.writeFileSync(out, JSON.stringify(doc, null, 2) + '\n');
    console.log(`wrote ${out}`);
  }
}

main();
