/**
 * Readers of the shared stance / entailment sets (../shared/data/nli, its README) as one shape of
 * labelled claim/evidence pairs, with the label map that README gives:
 *   agree / Supports / SUPPORTED / entailment / SUPPORT → SUPPORTS
 *   disagree / Refutes / REFUTED / contradiction / UNDERMINE → REFUTES
 *   discuss / unrelated / Neutral / neutral → NOT_ENOUGH_INFO
 * Two sets differ from the README's blanket rule, on reading their rows: the FEVER evidence→claim
 * pairs' `not_entailment` rows are FEVER REFUTES claims with their gold evidence (NEI claims have
 * none), so they are REFUTES; COVID-Fact's RTE `not_entailment` rows are its counterfactual
 * (refuted) claims. GLUE RTE's `not_entailment` stays NOT_ENOUGH_INFO (mostly unrelated
 * hypotheses). Pure readers: text in, pairs out; every set keeps its own split where it has one,
 * else a deterministic split by claim (`hashSplit`).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { sharedDataDir } from '../../lib/paths';

export type PairLabel = 'SUPPORTS' | 'REFUTES' | 'NOT_ENOUGH_INFO';
export const PAIR_LABELS: readonly PairLabel[] = ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO'];
export type PairSplit = 'train' | 'dev' | 'test';

export interface NliPairRow {
  set: string;
  split: PairSplit;
  /** Keeps a claim's pairs together (cross-validation folds, splits). */
  group: string;
  label: PairLabel;
  claim: string;
  evidence: string;
}

const nli = (...p: string[]) => path.join(sharedDataDir(), 'nli', ...p);
const exists = (f: string) => fs.existsSync(f);
const csv = (file: string, delimiter = ','): Record<string, string>[] =>
  parse(fs.readFileSync(file, 'utf8'), { columns: true, delimiter, relax_quotes: true, relax_column_count: true, skip_empty_lines: true });
const tsvRows = (file: string): string[][] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.split('\t'));
const jsonl = <T>(file: string): T[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
const clean = (s: string) =>
  s
    .replace(/-LRB-/g, '(')
    .replace(/-RRB-/g, ')')
    .replace(/-LSB-/g, '[')
    .replace(/-RSB-/g, ']')
    .replace(/``|''/g, '"')
    .replace(/\s+/g, ' ')
    .trim();

/** A claim's split from its key alone (sha256), so that adding rows never moves one across. */
export function hashSplit(key: string, dev = 0.2): PairSplit {
  const h = crypto.createHash('sha256').update(key).digest();
  return h.readUInt32BE(0) / 0x1_0000_0000 < dev ? 'dev' : 'train';
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const sentencesOf = (text: string) =>
  text
    .split(/\n+/)
    .flatMap((p) => [...segmenter.segment(p)].map((s) => s.segment.trim()))
    .filter((s) => s.length > 20);
const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/**
 * The body sentences a headline is judged against: the verdict reads sentences, not 500-word bodies,
 * so a long body is cut to its `k` sentences sharing most words with the headline, in body order.
 */
export function closestSentences(claim: string, body: string, k = 2): string {
  const cw = words(claim);
  const sents = sentencesOf(body);
  const scored = sents.map((s, i) => ({ i, s, o: [...words(s)].filter((w) => cw.has(w)).length }));
  const top = [...scored].sort((a, b) => b.o - a.o || a.i - b.i).slice(0, k);
  return top
    .sort((a, b) => a.i - b.i)
    .map((x) => x.s)
    .join(' ');
}

const FNC: Record<string, PairLabel> = { agree: 'SUPPORTS', disagree: 'REFUTES', discuss: 'NOT_ENOUGH_INFO', unrelated: 'NOT_ENOUGH_INFO' };

function* fncStyle(set: string, bodiesFile: string, stances: [string, PairSplit][]): Generator<NliPairRow> {
  const bodies = new Map(csv(bodiesFile).map((r) => [r['Body ID']!, r['articleBody']!]));
  for (const [file, split] of stances) {
    for (const r of csv(file)) {
      const body = bodies.get(r['Body ID']!);
      const label = FNC[r['Stance']!];
      if (!body || !label || !r['Headline']) continue;
      yield {
        set: r['Stance'] === 'unrelated' ? `${set}-unrelated` : set,
        split,
        group: `${set}:${r['Headline']}`,
        label,
        claim: clean(r['Headline']),
        evidence: closestSentences(r['Headline'], body),
      };
    }
  }
}

/** FNC-1: the whole original train (UKP's 9:1 split, both parts) and the official competition test. */
export function* fnc1(): Generator<NliPairRow> {
  yield* fncStyle('fnc1', nli('fnc1', 'train_bodies.csv'), [
    [nli('fnc1', 'ukp_split_9_1', 'train_train_stances.csv'), 'train'],
    [nli('fnc1', 'ukp_split_9_1', 'train_test_stances.csv'), 'train'],
  ]);
  yield* fncStyle('fnc1', nli('fnc1', 'competition_test_bodies.csv'), [[nli('fnc1', 'competition_test_stances.csv'), 'test']]);
}

/** ARC (user posts vs claims, FNC format), its train and test. */
export function* arc(): Generator<NliPairRow> {
  yield* fncStyle('arc', nli('arc', 'arc_bodies.csv'), [
    [nli('arc', 'arc_stances_train.csv'), 'train'],
    [nli('arc', 'arc_stances_test.csv'), 'test'],
  ]);
}

/** FEVER evidence → claim pairs (13,332; COVID-Fact's copy): entailment → SUPPORTS, not_entailment → REFUTES (see above). */
export function* fever(): Generator<NliPairRow> {
  const dir = nli('covidfact');
  const ev = fs.readFileSync(path.join(dir, 'RTE-Fever_processed_dev.raw.input0'), 'utf8').split('\n');
  const cl = fs.readFileSync(path.join(dir, 'RTE-Fever_processed_dev.raw.input1'), 'utf8').split('\n');
  const lab = fs.readFileSync(path.join(dir, 'RTE-Fever_processed_dev.label'), 'utf8').split('\n');
  for (let i = 0; i < lab.length; i++) {
    const l = lab[i]!.trim();
    if (!l || !ev[i] || !cl[i]) continue;
    const claim = clean(cl[i]!);
    yield {
      set: 'fever',
      split: hashSplit(`fever:${claim}`),
      group: `fever:${claim}`,
      label: l === 'entailment' ? 'SUPPORTS' : 'REFUTES',
      claim,
      evidence: clean(ev[i]!),
    };
  }
}

/**
 * COVID-Fact in its RTE form (train / dev / test as published): not_entailment = a counterfactual,
 * refuted claim. The test file carries no labels: they are read from the claims file by claim text.
 */
export function* covidfact(): Generator<NliPairRow> {
  const byClaim = new Map(
    jsonl<{ claim: string; label: string }>(nli('covidfact', 'COVIDFACT_dataset.jsonl')).map((c) => [
      c.claim.trim().toLowerCase(),
      c.label === 'SUPPORTED' ? 'entailment' : 'not_entailment',
    ]),
  );
  for (const split of ['train', 'dev', 'test'] as const) {
    const rows = tsvRows(nli('covidfact', `RTE-covidfact_${split}.tsv`)).slice(1);
    for (const [, evidence, claim, given] of rows) {
      const label = given ?? byClaim.get((claim ?? '').trim().toLowerCase());
      if (!evidence || !claim || !label) continue;
      yield {
        set: 'covidfact',
        split,
        group: `covidfact:${evidence.slice(0, 80)}`,
        label: label.trim() === 'entailment' ? 'SUPPORTS' : 'REFUTES',
        claim: clean(claim),
        evidence: clean(evidence.replace(/>/g, ' ')),
      };
    }
  }
}

const HV: Record<string, PairLabel> = { Supports: 'SUPPORTS', Refutes: 'REFUTES', Neutral: 'NOT_ENOUGH_INFO' };

/** HealthVer dev (the test split is held out by the shared data): split by claim, 20 % dev. */
export function* healthver(): Generator<NliPairRow> {
  for (const r of csv(nli('healthver', 'healthver_dev.csv'))) {
    const label = HV[r['label']!.trim()];
    if (!label || !r['claim'] || !r['evidence']) continue;
    const claim = clean(r['claim']);
    yield {
      set: 'healthver',
      split: hashSplit(`healthver:${claim}`),
      group: `healthver:${claim}`,
      label,
      claim,
      evidence: clean(r['evidence']),
    };
  }
}

/** WiCE dev: a supported claim against its gold sentences → SUPPORTS; a not-supported claim against its closest sentences → NOT_ENOUGH_INFO (partial support is left out). */
export function* wice(): Generator<NliPairRow> {
  type W = { label: string; supporting_sentences: number[][]; claim: string; evidence: string[] };
  for (const w of jsonl<W>(nli('wice', 'claim_dev.jsonl'))) {
    const claim = clean(w.claim);
    const base = { set: 'wice', split: hashSplit(`wice:${claim}`), group: `wice:${claim}` };
    if (w.label === 'supported' && w.supporting_sentences.length) {
      const ids = w.supporting_sentences[0]!;
      yield { ...base, label: 'SUPPORTS', claim, evidence: clean(ids.map((i) => w.evidence[i] ?? '').join(' ')) };
    } else if (w.label === 'not_supported') {
      yield { ...base, label: 'NOT_ENOUGH_INFO', claim, evidence: clean(closestSentences(claim, w.evidence.join('\n'))) };
    }
  }
}

const ENTAIL: Record<string, PairLabel> = {
  entailment: 'SUPPORTS',
  contradiction: 'REFUTES',
  neutral: 'NOT_ENOUGH_INFO',
  not_entailment: 'NOT_ENOUGH_INFO',
};

/** SICK 2014: train + trial for training, test for testing (sentence A = evidence, B = claim). */
export function* sick(): Generator<NliPairRow> {
  for (const [file, split] of [
    ['SICK_train.txt', 'train'],
    ['SICK_trial.txt', 'train'],
    ['SICK_test_annotated.txt', 'test'],
  ] as const) {
    for (const [id, a, b, , judgment] of tsvRows(nli('sick', file)).slice(1)) {
      const label = ENTAIL[(judgment ?? '').trim().toLowerCase()];
      if (label && a && b) yield { set: 'sick', split, group: `sick:${id}`, label, claim: b.trim(), evidence: a.trim() };
    }
  }
}

/** Counterfactually revised SNLI (minimal edits that flip the label). */
export function* cadSnli(): Generator<NliPairRow> {
  for (const split of ['train', 'dev', 'test'] as const) {
    for (const [a, b, gold] of tsvRows(nli('cad_snli', `all_combined_${split}.tsv`)).slice(1)) {
      const label = ENTAIL[(gold ?? '').trim()];
      if (label && a && b) yield { set: 'cad_snli', split, group: `cad_snli:${a}`, label, claim: b.trim(), evidence: a.trim() };
    }
  }
}

/** MED (monotonicity: negation, quantifiers): entailment / neutral, split by premise. */
export function* med(): Generator<NliPairRow> {
  const rows = tsvRows(nli('med', 'MED.tsv'));
  const head = rows[0]!;
  const [s1, s2, gold] = ['sentence1', 'sentence2', 'gold_label'].map((c) => head.indexOf(c));
  for (const r of rows.slice(1)) {
    const label = ENTAIL[(r[gold!] ?? '').trim()];
    const a = r[s1!]?.trim();
    const b = r[s2!]?.trim();
    if (label && a && b) yield { set: 'med', split: hashSplit(`med:${a}`), group: `med:${a}`, label, claim: b, evidence: a };
  }
}

/** GLUE RTE, every labelled pair (train for training; dev and test as the test split). */
export function* glueRte(): Generator<NliPairRow> {
  for (const [file, split] of [
    ['train.tsv', 'train'],
    ['dev.tsv', 'test'],
    ['test.tsv', 'test'],
  ] as const) {
    for (const [id, a, b, gold] of tsvRows(nli('glue_rte', file)).slice(1)) {
      const label = ENTAIL[(gold ?? '').trim()];
      if (label && a && b) yield { set: 'rte', split, group: `rte:${file}:${id}`, label, claim: b.trim(), evidence: a.trim() };
    }
  }
}

/** Perspectrum: a perspective SUPPORTs or UNDERMINEs a claim (the perspective is the evidence); its own split. */
export function* perspectrum(): Generator<NliPairRow> {
  type C = { cId: number; text: string; perspectives: { pids: number[]; stance_label_3: string }[] };
  const claims = JSON.parse(fs.readFileSync(nli('perspectrum', 'perspectrum_with_answers_v1.0.json'), 'utf8')) as C[];
  const pool = new Map(
    (JSON.parse(fs.readFileSync(nli('perspectrum', 'perspective_pool_v1.0.json'), 'utf8')) as { pId: number; text: string }[]).map((p) => [
      p.pId,
      p.text,
    ]),
  );
  const splits = JSON.parse(fs.readFileSync(nli('perspectrum', 'dataset_split_v1.0.json'), 'utf8')) as Record<string, string>;
  for (const c of claims) {
    const split = (splits[String(c.cId)] ?? 'train') as PairSplit;
    for (const p of c.perspectives) {
      const label = p.stance_label_3 === 'SUPPORT' ? 'SUPPORTS' : p.stance_label_3 === 'UNDERMINE' ? 'REFUTES' : null;
      const text = pool.get(p.pids[0]!);
      if (label && text)
        yield { set: 'perspectrum', split, group: `perspectrum:${c.cId}`, label, claim: c.text.trim(), evidence: text.trim() };
    }
  }
}

const LIAR: Record<string, PairLabel> = { true: 'SUPPORTS', 'mostly-true': 'SUPPORTS', false: 'REFUTES', 'pants-fire': 'REFUTES' };

/** LIAR-PLUS: the journalist's justification as evidence; true / mostly-true vs false / pants-fire (the middle ratings left out). */
export function* liarPlus(): Generator<NliPairRow> {
  type L = { id: number; label: string; claim: string; justification: string };
  for (const [file, split] of [
    ['val2.jsonl', 'train'],
    ['test2.jsonl', 'test'],
  ] as const) {
    for (const r of jsonl<L>(nli('liar_plus', file))) {
      const label = LIAR[r.label];
      if (!label || !r.claim || !r.justification) continue;
      yield {
        set: 'liar',
        split,
        group: `liar:${file}:${r.id}`,
        label,
        claim: clean(r.claim),
        evidence: clean(closestSentences(r.claim, r.justification, 3)),
      };
    }
  }
}

export const SHARED_SETS = { fnc1, arc, fever, covidfact, healthver, wice, sick, cadSnli, med, glueRte, perspectrum, liarPlus } as const;

/** Every shared set that is present, in a fixed order; a missing folder is skipped with a note. */
export function* sharedPairs(log: (msg: string) => void = () => {}): Generator<NliPairRow> {
  for (const [name, read] of Object.entries(SHARED_SETS)) {
    try {
      yield* read();
    } catch (e) {
      if (!exists(nli())) throw e;
      log(`${name}: skipped (${e instanceof Error ? e.message : String(e)})`);
    }
  }
}
