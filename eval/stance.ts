/**
 * `quin eval stance --pairs FILE.jsonl`: the verdict stage's per-sentence stance on labelled
 * claim/evidence pairs, one JSON object a line: {"id", "set"?, "claim", "evidence", "label"} with
 * label SUPPORTS / REFUTES / NOT_ENOUGH_INFO. Per set: n, accuracy, macro-F1 over the labels the set
 * uses (a prediction outside them — "neither" on a set of only supports/refutes pairs — counts as
 * wrong), per-class precision and recall, the confusion matrix, and the risk–coverage table of the
 * pairs called supporting or refuting.
 */
import fs from 'node:fs';
import { z } from 'zod';
import type { Config } from '../lib/config';
import { createError } from '../lib/errors';
import { analyzeQuery } from '../ranking';
import { createVerdictStage } from '../ranking/verdict';
import { evaluatedNli } from './verdict';
import { verdictMetrics, type VerdictMetrics } from './verdict-metrics';

export const PAIR_LABELS = ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO'] as const;
const STANCE_TO_LABEL = { supports: 'SUPPORTS', refutes: 'REFUTES', neutral: 'NOT_ENOUGH_INFO' } as const;

export const StancePair = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  set: z.string().min(1).optional(),
  claim: z.string().trim().min(1),
  evidence: z.string().trim().min(1),
  label: z.enum(PAIR_LABELS),
});
export type StancePair = z.infer<typeof StancePair>;

/** The pairs of a JSON-lines file; a bad line is an INVALID_INPUT error naming its line and field. */
export function readPairs(file: string): StancePair[] {
  if (!fs.existsSync(file)) throw createError('INVALID_INPUT', `--pairs: no such file ${file}`);
  const out: StancePair[] = [];
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (!line.trim()) return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        throw createError('INVALID_INPUT', `${file}:${i + 1}: not JSON`);
      }
      const p = StancePair.safeParse(raw);
      if (!p.success)
        throw createError(
          'INVALID_INPUT',
          `${file}:${i + 1}: ${p.error.issues.map((x) => `${x.path.join('.') || 'line'}: ${x.message}`).join('; ')}`,
        );
      out.push(p.data);
    });
  if (!out.length) throw createError('INVALID_INPUT', `${file}: no pairs`);
  return out;
}

export interface StanceSetReport extends VerdictMetrics {
  labels: string[];
}

export interface StanceReport {
  model: string;
  sets: Record<string, StanceSetReport>;
}

export interface Judged {
  pair: StancePair;
  predicted: string;
  confidence: number;
}

/** Per-set metrics of judged pairs (pure). */
export function scoreStance(judged: readonly Judged[]): Record<string, StanceSetReport> {
  const bySet = new Map<string, Judged[]>();
  for (const j of judged) {
    const set = j.pair.set ?? 'all';
    (bySet.get(set) ?? bySet.set(set, []).get(set)!).push(j);
  }
  const sets: Record<string, StanceSetReport> = {};
  for (const [set, items] of [...bySet].sort(([a], [b]) => a.localeCompare(b))) {
    const labels = PAIR_LABELS.filter((l) => items.some((j) => j.pair.label === l));
    const m = verdictMetrics(
      items.map((j) => ({ gold: j.pair.label, predicted: j.predicted, confidence: j.confidence })),
      { labels, committed: ['SUPPORTS', 'REFUTES'] },
    );
    sets[set] = { labels: [...labels], ...m };
  }
  return sets;
}

/** Judges every pair with the configured verdict stage (claims grouped, so each is analysed once). */
export async function evaluateStance(pairs: readonly StancePair[], config: Config): Promise<StanceReport> {
  const model = evaluatedNli(config);
  const created = model.toLowerCase() === 'none' ? null : await createVerdictStage(config, { model });
  if (!created) throw createError('MODEL_UNAVAILABLE', `no NLI model to evaluate (${model})`);
  // A labelled pair's evidence is about its claim by construction: no relevance gate (as the card reads pairs).
  const stage = created.givenEvidence();
  const byClaim = new Map<string, number[]>();
  pairs.forEach((p, i) => (byClaim.get(p.claim) ?? byClaim.set(p.claim, []).get(p.claim)!).push(i));
  const judged: Judged[] = new Array(pairs.length);
  for (const [claim, idx] of byClaim) {
    const out = await stage.judgeSentences(
      analyzeQuery(claim, { maxChars: 10_000 }).claim,
      idx.map((i) => pairs[i]!.evidence),
    );
    idx.forEach((i, k) => {
      const j = out[k]!;
      judged[i] = { pair: pairs[i]!, predicted: STANCE_TO_LABEL[j.stance], confidence: j.probs[j.stance] };
    });
  }
  return { model: stage.id, sets: scoreStance(judged) };
}

const f4 = (x: number | null) => (x === null ? '–' : x.toFixed(4));

/** The report as text: one block per set. */
export function formatStance(r: StanceReport): string {
  const lines = [`model: ${r.model}`];
  for (const [set, m] of Object.entries(r.sets)) {
    lines.push('', `${set}: n=${m.n}  accuracy ${f4(m.accuracy)}  macro-F1 ${f4(m.macro_f1)} (over ${m.labels.join(', ')})`);
    for (const [l, s] of Object.entries(m.per_label))
      lines.push(`  ${l.padEnd(16)} precision ${f4(s.precision)}  recall ${f4(s.recall)}  F1 ${f4(s.f1)}  support ${s.support}`);
    const cols = Object.keys(Object.values(m.confusion)[0] ?? {});
    lines.push(`  confusion (gold \\ predicted): ${cols.join(' | ')}`);
    for (const [g, row] of Object.entries(m.confusion))
      lines.push(`    ${g.padEnd(16)} ${cols.map((c) => String(row[c] ?? 0).padStart(6)).join(' ')}`);
  }
  return lines.join('\n');
}
