/**
 * Chooses the verdict aggregation (ranking/verdict/aggregate.ts) from training/verdict-features.ts's
 * dump: for each structural variant (results read, sentences per result, mean or max pooling) the
 * thresholds (min evidence, refute weight; MIXED off, SciFact claims are never mixed) are fitted on
 * the TRAIN split's claim-level macro-F1; the variant is then chosen on the dev split. End to end
 * (our retrieval) and oracle (gold rationales) are reported on both splits.
 *
 *   npx tsx training/fit-verdict.ts [features=.cache/training/verdict-features.jsonl]
 */
import fs from 'node:fs';
import path from 'node:path';
import { CLAIM_LABELS, claimLabelOf, classification } from '../eval/verdict';
import { aggregate, type JudgedSentence, type VerdictThresholds } from '../ranking/verdict';
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
  const rows: { variant: string; t: VerdictThresholds; train: number; dev: number }[] = [];
  for (const pooling of ['mean', 'max'] as const) {
    for (const depth of [1, 2, 3, 5, 10]) {
      for (const per of [1, 2, 3]) {
        const jt = train.map((c) => judgedOf(c.e2e, depth, per));
        const jd = dev.map((c) => judgedOf(c.e2e, depth, per));
        const t = fitThresholds(train, jt, pooling);
        const row = { variant: `e2e ${pooling} depth ${depth} × ${per}`, t, train: r4(t.f1), dev: r4(macroF1(dev, jd, t)) };
        rows.push(row);
        console.log(`${row.variant}: min ${t.minEvidence} refute ×${t.refuteWeight}: train ${row.train} dev ${row.dev}`);
      }
    }
    const ot = train.map((c) => c.oracle.map((p) => ({ probs: p, relevance: 1, recency: 1 })));
    const od = dev.map((c) => c.oracle.map((p) => ({ probs: p, relevance: 1, recency: 1 })));
    const t = fitThresholds(train, ot, pooling);
    console.log(`oracle ${pooling}: min ${t.minEvidence} refute ×${t.refuteWeight}: train ${r4(t.f1)} dev ${r4(macroF1(dev, od, t))}`);
  }
  const best = rows.reduce((a, b) => (b.dev > a.dev ? b : a));
  console.log(`best end-to-end variant on dev: ${best.variant} ${JSON.stringify(best.t)} train ${best.train} dev ${best.dev}`);
}

main();
