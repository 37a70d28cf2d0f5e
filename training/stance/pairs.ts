/**
 * Every labelled claim/evidence-sentence pair the stance classifier learns from, in one shape:
 * SciFact (rationale sentences; other sentences of the cited abstracts as neutral), Climate-FEVER
 * (its labelled evidence sentences), our news claim set (eval/news/claims.jsonl: the deciding
 * sentence; for not-enough-evidence claims the closest sentence, neutral) and the generated news
 * pairs (generate.ts). `group` keeps a claim's pairs in one cross-validation fold.
 */
import fs from 'node:fs';
import path from 'node:path';
import { climateNliPairs, scifactNliPairs } from '../prepare';
import { rng } from '../data';
import type { StancePair } from './generate';

export type StanceLabel = 'SUPPORTED' | 'REFUTED' | 'NEUTRAL';
export const STANCE_LABELS: readonly StanceLabel[] = ['SUPPORTED', 'REFUTED', 'NEUTRAL'];

export interface LabelledPair {
  src: 'scifact' | 'climate-fever' | 'news' | 'news-gen';
  group: string;
  label: StanceLabel;
  claim: string;
  evidence: string;
  rule?: string;
}

const FROM_NLI: StanceLabel[] = ['SUPPORTED', 'REFUTED', 'NEUTRAL'];

export const NEWS_CLAIMS = path.resolve('eval/news/claims.jsonl');
export const NEWS_PAIRS = path.resolve('.cache/training/stance/news-pairs.jsonl');

interface NewsClaim {
  id: string;
  claim: string;
  label: 'SUPPORTED' | 'REFUTED' | 'NOT_ENOUGH_EVIDENCE';
  sentence: string;
}

export function newsClaims(file = NEWS_CLAIMS): NewsClaim[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as NewsClaim)
    .filter((c) => c.label && c.sentence);
}

export function* labelledPairs(opts: { generated?: boolean } = {}): Generator<LabelledPair> {
  for (const p of scifactNliPairs(rng(13)))
    if (!p.whole) yield { src: 'scifact', group: `scifact:${p.qid}`, label: FROM_NLI[p.label]!, claim: p.hypothesis, evidence: p.premise };
  for (const p of climateNliPairs())
    yield { src: 'climate-fever', group: `climate-fever:${p.qid}`, label: FROM_NLI[p.label]!, claim: p.hypothesis, evidence: p.premise };
  for (const c of newsClaims())
    yield {
      src: 'news',
      group: `news:${c.id}`,
      label: c.label === 'NOT_ENOUGH_EVIDENCE' ? 'NEUTRAL' : c.label,
      claim: c.claim,
      evidence: c.sentence,
    };
  if (opts.generated !== false && fs.existsSync(NEWS_PAIRS)) {
    for (const line of fs.readFileSync(NEWS_PAIRS, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const p = JSON.parse(line) as StancePair;
      yield { src: 'news-gen', group: `news-gen:${p.doc}`, label: p.label, claim: p.claim, evidence: p.evidence, rule: p.rule };
    }
  }
}
