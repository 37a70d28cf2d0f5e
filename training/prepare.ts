/**
 * SciFact and Climate-FEVER claim–evidence pairs as text, for the stance model (training/stance/
 * build-pairs.ts reads them with the shared sets): SciFact rationales (SUPPORT → entailment,
 * CONTRADICT → contradiction, other sentences of the cited docs → neutral) and Climate-FEVER's
 * evidence labels. Split by eval/splits.ts (train claims are fitted on, dev claims only scored).
 * The reranker's data is made by training/reranker/ (candidates.ts, lists.ts).
 */
import { splitOf } from '../eval/splits';
import { climateClaims, sciClaims, sciCorpus, shuffle } from './data';

const ENT = 0;
const CON = 1;
const NEU = 2;

/** One claim/evidence pair of the NLI data, as text (both quin-nli and its stance head read these). */
export interface NliPair {
  src: 'scifact' | 'climate-fever';
  split: string;
  qid: string | number;
  /** Climate-FEVER's evidence id. */
  eid?: string;
  label: number;
  premise: string;
  hypothesis: string;
  /** A whole multi-sentence rationale (the verdict stage reads single sentences). */
  whole?: boolean;
}

/** SciFact rationales (SUPPORT → entailment, CONTRADICT → contradiction), two other sentences of each cited doc as neutral. */
export function* scifactNliPairs(rand: () => number): Generator<NliPair> {
  const docs = new Map(sciCorpus().map((d) => [d.id, d]));
  for (const c of sciClaims()) {
    const split = splitOf('scifact', c.id);
    const used = new Set<string>();
    const base = { src: 'scifact' as const, split, qid: c.id, hypothesis: c.claim };
    for (const [docId, sets] of Object.entries(c.evidence)) {
      const doc = docs.get(Number(docId));
      if (!doc) continue;
      for (const s of sets) {
        const label = s.label === 'SUPPORT' ? ENT : CON;
        const sents = s.sentences.map((i) => doc.sentences[i]).filter((x): x is string => Boolean(x));
        // Evidence sentence by sentence, as the verdict stage reads it; the whole rationale too.
        for (const sent of sents) yield { ...base, label, premise: sent };
        if (sents.length > 1) yield { ...base, label, premise: sents.join(' '), whole: true };
        s.sentences.forEach((i) => used.add(`${docId}:${i}`));
      }
    }
    // Neutral: other sentences of the cited docs (topical, but not evidence).
    for (const docId of c.cited) {
      const doc = docs.get(docId);
      if (!doc) continue;
      const others = doc.sentences.map((s, i) => ({ s, i })).filter((x) => !used.has(`${docId}:${x.i}`));
      for (const x of shuffle(others, rand).slice(0, 2)) yield { ...base, label: NEU, premise: x.s };
    }
  }
}

/** Every Climate-FEVER claim–evidence sentence with its label. */
export function* climateNliPairs(): Generator<NliPair> {
  const map = { SUPPORTS: ENT, REFUTES: CON, NOT_ENOUGH_INFO: NEU } as const;
  for (const c of climateClaims()) {
    for (const e of c.evidences)
      yield {
        src: 'climate-fever',
        split: splitOf('climate-fever', c.id),
        qid: c.id,
        eid: e.id,
        label: map[e.label],
        premise: e.text,
        hypothesis: c.claim,
      };
  }
}
