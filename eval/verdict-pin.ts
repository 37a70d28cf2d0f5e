/**
 * Verdict regression files (eval/regressions/verdict/*.json), pinned like retrieval's: the shipped
 * stance model's per-sentence numbers on fixed pair sets — our news claims against their deciding
 * sentences (in the repository) and every Climate-FEVER claim–evidence pair (shared data). A change
 * to the aligner, its lexicon or stance.json that moves a number fails eval/verdict-pin.test.ts until
 * the file moves with it:   npm run eval:verdict-pins -- --update   (committed with the change).
 *
 * These are in-sample numbers (the model was fitted on these pairs among others): they guard against
 * unintended change; the honest estimates are the cross-validated ones in verdict.json / docs/models.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { projectRoot } from '../lib/paths';
import { analyzeQuery } from '../ranking';
import type { NliVerdictStage } from '../ranking/verdict';
import { readJsonl } from './datasets';
import { loadNewsClaims } from './news/claims';
import { verdictMetrics } from './verdict-metrics';

export const STANCE_LABELS = ['supports', 'refutes', 'neutral'] as const;

export const StancePin = z.object({
  name: z.string().min(1),
  command: z.string().min(1),
  /** The pair set: repository path, or a path under the shared data folder. */
  pairs: z.string().min(1),
  model: z.string().min(1),
  n: z.number().int().positive(),
  expected: z.object({
    accuracy: z.number(),
    macro_f1: z.number(),
    refutes_precision: z.number().nullable(),
    supports_read_as_refutes: z.number().int(),
  }),
});
export type StancePin = z.infer<typeof StancePin>;

export interface Pair {
  claim: string;
  evidence: string;
  gold: (typeof STANCE_LABELS)[number];
}

export const pinsDir = () => path.join(projectRoot(), 'eval', 'regressions', 'verdict');

const NEWS_STANCE = { SUPPORTED: 'supports', REFUTED: 'refutes', NOT_ENOUGH_EVIDENCE: 'neutral' } as const;
const CF_STANCE: Record<string, Pair['gold']> = { SUPPORTS: 'supports', REFUTES: 'refutes', NOT_ENOUGH_INFO: 'neutral' };

/** Each news claim against its deciding sentence (a not-enough-evidence claim's is on topic, with no stance). */
export function newsPairs(file = path.join(projectRoot(), 'eval', 'news', 'claims.jsonl')): Pair[] {
  return loadNewsClaims(file).flatMap((c) =>
    c.label && c.sentence ? [{ claim: c.claim, evidence: c.sentence, gold: NEWS_STANCE[c.label] }] : [],
  );
}

export function climatePairs(file: string): Pair[] {
  const out: Pair[] = [];
  for (const { value } of readJsonl(file)) {
    const c = value as { claim: string; evidences: { evidence: string; evidence_label: string }[] };
    for (const e of c.evidences)
      if (CF_STANCE[e.evidence_label]) out.push({ claim: c.claim, evidence: e.evidence, gold: CF_STANCE[e.evidence_label]! });
  }
  return out;
}

/** The stance model's numbers on `pairs` (judged claim by claim, as the stage does). */
export async function measurePairs(
  stage: Pick<NliVerdictStage, 'judgeSentences'>,
  pairs: readonly Pair[],
): Promise<StancePin['expected'] & { n: number }> {
  const pred: string[] = new Array(pairs.length);
  const byClaim = new Map<string, number[]>();
  pairs.forEach((p, i) => byClaim.set(p.claim, [...(byClaim.get(p.claim) ?? []), i]));
  for (const [claim, idx] of byClaim) {
    const judged = await stage.judgeSentences(
      analyzeQuery(claim, { maxChars: 10_000 }).claim,
      idx.map((i) => pairs[i]!.evidence),
    );
    idx.forEach((i, j) => (pred[i] = judged[j]!.stance));
  }
  const m = verdictMetrics(
    pairs.map((p, i) => ({ gold: p.gold, predicted: pred[i]!, confidence: 1 })),
    { labels: STANCE_LABELS, committed: ['supports', 'refutes'], flip: { from: 'supports', to: 'refutes' } },
  );
  return {
    n: pairs.length,
    accuracy: m.accuracy ?? 0,
    macro_f1: m.macro_f1 ?? 0,
    refutes_precision: m.precision_committed.refutes?.precision ?? null,
    supports_read_as_refutes: m.flipped?.n ?? 0,
  };
}

export function loadPins(dir = pinsDir()): { file: string; pin: StancePin }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ file: path.join(dir, f), pin: StancePin.parse(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))) }));
}

/** Lines of differences between a pin and what was measured (empty when they agree to four decimals). */
export function comparePin(pin: StancePin, model: string, measured: StancePin['expected'] & { n: number }): string[] {
  const out: string[] = [];
  if (pin.model !== model) out.push(`${pin.name}: pinned for stance model ${pin.model}, serving ${model}`);
  if (pin.n !== measured.n) out.push(`${pin.name}: ${pin.n} pairs pinned, ${measured.n} read`);
  for (const [k, v] of Object.entries(pin.expected) as [keyof StancePin['expected'], number | null][]) {
    const got = measured[k];
    if (v === null || got === null ? v !== got : Math.abs(v - got) > 5e-5) out.push(`${pin.name}: ${k} pinned ${v}, measured ${got}`);
  }
  return out;
}

const SETS: Record<string, { pairs: string; load: (sharedData: string) => Pair[] | null }> = {
  'news-deciding': { pairs: 'eval/news/claims.jsonl', load: () => newsPairs() },
  'climate-fever-pairs': {
    pairs: 'climate-fever/claims.jsonl (shared data)',
    load: (shared) =>
      fs.existsSync(path.join(shared, 'climate-fever', 'claims.jsonl'))
        ? climatePairs(path.join(shared, 'climate-fever', 'claims.jsonl'))
        : null,
  },
};

/** Measures every pin's set with `stage`: [name, lines of differences | null when its data is missing]. */
export async function checkPins(
  stage: Pick<NliVerdictStage, 'judgeSentences' | 'id'>,
  sharedData: string,
  update = false,
): Promise<{ name: string; diff: string[] | null }[]> {
  const out: { name: string; diff: string[] | null }[] = [];
  const pinned = new Map(loadPins().map((p) => [p.pin.name, p]));
  for (const [name, set] of Object.entries(SETS)) {
    const pairs = set.load(sharedData);
    if (!pairs) {
      out.push({ name, diff: null });
      continue;
    }
    const measured = await measurePairs(stage, pairs);
    const existing = pinned.get(name);
    if (update) {
      const { n, ...expected } = measured;
      const pin: StancePin = { name, command: 'npm run eval:verdict-pins -- --update', pairs: set.pairs, model: stage.id, n, expected };
      fs.mkdirSync(pinsDir(), { recursive: true });
      fs.writeFileSync(path.join(pinsDir(), `${name}.json`), JSON.stringify(pin, null, 2) + '\n');
    }
    out.push({ name, diff: update ? [] : existing ? comparePin(existing.pin, stage.id, measured) : [`${name}: no pin file`] });
  }
  return out;
}
