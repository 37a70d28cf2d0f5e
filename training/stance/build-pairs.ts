/**
 * The NLI model's data: every labelled claim/evidence pair we have, in one file, with token ids
 * from the product's own tokenizer (so that training and serving tokenize identically).
 *
 *   npx tsx training/stance/build-pairs.ts
 *
 * Writes under .cache/training/stance/:
 *   pairs.jsonl       {set, split, group, label, claim, evidence, ids}   (the trainer's input)
 *   retrieved.jsonl   the same for what our own search retrieves for the training claims (the
 *                     second phase of training reads it too; claims-dump.ts must have run):
 *     scifact-retrieved  a SciFact train-split claim against retrieved sentences that are not its
 *                        rationales (neither: topical, even from a cited abstract, but not evidence);
 *     news-retrieved     a news claim of our train split against retrieved sentences of other
 *                        articles that state less than half of its content words (other coverage
 *                        of the same story may support it: those are left out).
 *   eval/<set>.jsonl  {id, set, claim, evidence, label} per held-out split (`quin eval stance --pairs`)
 *
 * Sources: the shared sets (nli-sets.ts), SciFact rationales and Climate-FEVER evidence (training
 * split by eval/splits.ts), our news claims' deciding sentences, the generated news pairs
 * (generate.ts), and three kinds made here from the FEVER pairs:
 *   fever-nei  a FEVER claim against the evidence of another claim that shares most of its words
 *              (related, but not evidence: FEVER's own "not enough info" has no evidence to pair);
 *   fever-gen  a supported FEVER claim with one fact changed (rewrite.ts), against the same evidence
 *              → REFUTES, the way FEVER's annotators wrote its refuted claims;
 *   fever-sym  a supported FEVER claim against its evidence with one of the claim's facts changed
 *              → REFUTES: the same claim with both labels, as FEVER-Symmetric pairs them.
 * FNC-1's and ARC's "unrelated" pairs are sampled (they are most of those sets and easy). Deterministic.
 */
import fs from 'node:fs';
import path from 'node:path';
import { corpusOfId, heldOutArticle } from '../../eval/news/heldout';
import { splitOf } from '../../eval/splits';
import { TextTokenizer } from '../../lib/models/tokenizer';
import { climateNliPairs, scifactNliPairs } from '../prepare';
import { rng, sciClaims, sciCorpus, shared, shuffle } from '../data';
import { dumpedClaims } from './claim-sets';
import { NEWS_PAIRS, newsClaims, newsSplit } from './pairs';
import { contradictRewrite, namesIn, refutingEvidence } from './rewrite';
import { sharedPairs, type NliPairRow, type PairLabel } from './nli-sets';
import type { StancePair } from './generate';

const OUT = path.resolve('.cache/training/stance');
const NO_NEGATIVES = 'no retrieved negatives from it';
const MAX_LEN = 128;
const SEED = 20261126;
/** Sampled "unrelated" pairs per split (the rest add nothing a few thousand do not). */
const UNRELATED = { train: 4000, test: 3000 } as const;
const FROM_NLI: PairLabel[] = ['SUPPORTS', 'REFUTES', 'NOT_ENOUGH_INFO'];
const FROM_STANCE: Record<string, PairLabel> = { SUPPORTED: 'SUPPORTS', REFUTED: 'REFUTES', NEUTRAL: 'NOT_ENOUGH_INFO' };

function* ownPairs(): Generator<NliPairRow> {
  for (const p of scifactNliPairs(rng(13)))
    if (!p.whole)
      yield {
        set: 'scifact',
        split: p.split as 'train' | 'dev',
        group: `scifact:${p.qid}`,
        label: FROM_NLI[p.label]!,
        claim: p.hypothesis,
        evidence: p.premise,
      };
  for (const p of climateNliPairs())
    yield {
      set: 'climate-fever',
      split: splitOf('climate-fever', p.qid),
      group: `climate-fever:${p.qid}`,
      label: FROM_NLI[p.label]!,
      claim: p.hypothesis,
      evidence: p.premise,
    };
  for (const c of newsClaims())
    yield {
      set: 'news',
      split: newsSplit(c),
      group: `news:${c.id}`,
      label: c.label === 'NOT_ENOUGH_EVIDENCE' ? 'NOT_ENOUGH_INFO' : FROM_STANCE[c.label]!,
      claim: c.claim,
      evidence: c.sentence,
    };
  if (fs.existsSync(NEWS_PAIRS))
    for (const line of fs.readFileSync(NEWS_PAIRS, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const p = JSON.parse(line) as StancePair;
      yield {
        set: 'news-gen',
        split: 'train',
        group: `news-gen:${p.doc}`,
        label: FROM_STANCE[p.label]!,
        claim: p.claim,
        evidence: p.evidence,
      };
    }
  else console.warn(`${NEWS_PAIRS} missing: run training/stance/generate.ts first for the generated news pairs`);
}

/** Retrieved non-evidence sentences taken per training claim. */
const RETRIEVED_PER_CLAIM = 8;

const norm = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/[.!?]+$/, '');

/** The share of the claim's content words a sentence states. */
function stated(claim: string, sentence: string): number {
  const c = contentWords(claim);
  const s = contentWords(sentence);
  return c.size ? [...c].filter((w) => s.has(w)).length / c.size : 0;
}

/** Retrieved sentences that are not evidence for the training claims (see the header). */
function retrievedNegatives(rand: () => number): NliPairRow[] {
  const out: NliPairRow[] = [];
  const docs = new Map(sciCorpus().map((d) => [d.id, d.sentences]));
  const rationale = new Map<string, Set<string>>();
  for (const c of sciClaims()) {
    const set = new Set<string>();
    for (const [doc, sets] of Object.entries(c.evidence))
      for (const e of sets) for (const i of e.sentences) set.add(norm(docs.get(Number(doc))?.[i] ?? ''));
    rationale.set(`scifact:${c.id}`, set);
  }
  for (const c of dumpedClaims('scifact', NO_NEGATIVES)) {
    if (c.split !== 'train') continue;
    const gold = rationale.get(c.id) ?? new Set();
    const pool = [...new Set(c.results.flatMap((r) => r.sentences))].filter((s) => !gold.has(norm(s)));
    for (const s of shuffle(pool, rand).slice(0, RETRIEVED_PER_CLAIM))
      out.push({
        set: 'scifact-retrieved',
        split: 'train',
        group: `scifact:${c.id.split(':')[1]}`,
        label: 'NOT_ENOUGH_INFO',
        claim: c.claim,
        evidence: s,
      });
  }
  for (const c of dumpedClaims('news', NO_NEGATIVES)) {
    if (c.split !== 'train') continue;
    // Sentences of held-out articles stay unread (eval/news/heldout.ts; a dump's doc is the importer's id).
    const usable = (r: { doc: string }) => r.doc !== c.doc && !heldOutArticle(corpusOfId(r.doc), r.doc);
    const pool = [...new Set(c.results.filter(usable).flatMap((r) => r.sentences))].filter((s) => stated(c.claim, s) < 0.5);
    for (const s of shuffle(pool, rand).slice(0, RETRIEVED_PER_CLAIM))
      out.push({ set: 'news-retrieved', split: 'train', group: c.id, label: 'NOT_ENOUGH_INFO', claim: c.claim, evidence: s });
  }
  return out;
}

const contentWords = (s: string) =>
  new Set(
    (s.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []).filter((w) => !/^(that|this|with|from|have|were|which|their|there)$/.test(w)),
  );

/** FEVER-style "related but not evidence" pairs and one-fact-changed refutations (see the header). */
function feverExtras(fever: readonly NliPairRow[], rand: () => number): NliPairRow[] {
  const out: NliPairRow[] = [];
  const claims = [...new Map(fever.map((p) => [p.claim, p])).values()];
  const postings = new Map<string, number[]>();
  const evidences = fever.map((p) => p.evidence);
  evidences.forEach((e, i) => {
    for (const w of contentWords(e)) (postings.get(w) ?? postings.set(w, []).get(w)!).push(i);
  });
  const own = new Map<string, Set<string>>();
  for (const p of fever) (own.get(p.claim) ?? own.set(p.claim, new Set()).get(p.claim)!).add(p.evidence);
  // Names to swap in come from all of FEVER's evidence (another name of the same kind, most likely).
  const feverNames = [...new Set(evidences.flatMap(namesIn))];
  for (const c of shuffle(claims, rand)) {
    if (rand() < 0.5) {
      const score = new Map<number, number>();
      for (const w of contentWords(c.claim)) {
        const p = postings.get(w);
        if (p && p.length < 300) for (const i of p) score.set(i, (score.get(i) ?? 0) + 1 / Math.log(2 + p.length));
      }
      const best = [...score]
        .filter(([i]) => !own.get(c.claim)!.has(evidences[i]!) && fever[i]!.group !== c.group)
        .sort((a, b) => b[1] - a[1])[0];
      if (best)
        out.push({
          set: 'fever-nei',
          split: c.split,
          group: c.group,
          label: 'NOT_ENOUGH_INFO',
          claim: c.claim,
          evidence: evidences[best[0]]!,
        });
    }
    if (c.label === 'SUPPORTS' && c.split === 'train' && rand() < 0.6) {
      const changed = contradictRewrite(c.claim, namesIn(c.evidence), rand);
      if (changed && changed.text !== c.claim)
        out.push({ set: 'fever-gen', split: 'train', group: c.group, label: 'REFUTES', claim: changed.text, evidence: c.evidence });
    }
    if (c.label === 'SUPPORTS' && c.split === 'train') {
      const against = refutingEvidence(c.evidence, c.claim, feverNames, rand);
      if (against) out.push({ set: 'fever-sym', split: 'train', group: c.group, label: 'REFUTES', claim: c.claim, evidence: against.text });
    }
  }
  return out;
}

/**
 * A held-out symmetric check made like fever-sym from the dev claims (its own random stream, so the
 * training pairs stay as they are): each supported dev claim against its evidence with one of the
 * claim's facts changed → REFUTES. With fever:dev it pairs a claim with both labels, as FEVER-Symmetric
 * does (its test set is held out by the shared data).
 */
function feverSymDev(fever: readonly NliPairRow[], rand: () => number): NliPairRow[] {
  const names = [...new Set(fever.map((p) => p.evidence).flatMap(namesIn))];
  return fever.flatMap((c) => {
    if (c.label !== 'SUPPORTS' || c.split !== 'dev') return [];
    const against = refutingEvidence(c.evidence, c.claim, names, rand);
    return against
      ? [{ set: 'fever-sym', split: 'dev', group: c.group, label: 'REFUTES', claim: c.claim, evidence: against.text } as const]
      : [];
  });
}

function sampleUnrelated(rows: NliPairRow[], rand: () => number): NliPairRow[] {
  const keep: NliPairRow[] = [];
  for (const split of ['train', 'test'] as const)
    for (const set of ['fnc1-unrelated', 'arc-unrelated'])
      keep.push(
        ...shuffle(
          rows.filter((r) => r.set === set && r.split === split),
          rand,
        ).slice(0, set === 'fnc1-unrelated' ? UNRELATED[split] : UNRELATED[split] / 2),
      );
  return [...rows.filter((r) => !r.set.endsWith('-unrelated')), ...keep];
}

async function main() {
  const rand = rng(SEED);
  const tok = new TextTokenizer(
    JSON.parse(fs.readFileSync(shared('tokenizers', 'bert-base-uncased', 'tokenizer.json'), 'utf8')),
    JSON.parse(fs.readFileSync(shared('tokenizers', 'bert-base-uncased', 'tokenizer_config.json'), 'utf8')),
  );
  let rows = sampleUnrelated([...sharedPairs((m) => console.warn(m)), ...ownPairs()], rand);
  rows = [
    ...rows,
    ...feverExtras(
      rows.filter((r) => r.set === 'fever'),
      rand,
    ),
  ].filter((r) => r.claim.trim() && r.evidence.trim());
  rows.push(
    ...feverSymDev(
      rows.filter((r) => r.set === 'fever'),
      rng(SEED + 1),
    ),
  );
  fs.mkdirSync(path.join(OUT, 'eval'), { recursive: true });
  const fd = fs.openSync(path.join(OUT, 'pairs.jsonl'), 'w');
  const evalRows = new Map<string, string[]>();
  const counts = new Map<string, number>();
  rows.forEach((r, i) => {
    // Premise = evidence, hypothesis = claim: the order the NLI role is served in.
    const ids = tok.encodeOne(r.evidence, r.claim, MAX_LEN).ids;
    fs.writeSync(fd, JSON.stringify({ ...r, ids }) + '\n');
    const key = `${r.set}\t${r.split}\t${r.label}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (r.split !== 'train') {
      const name = `${r.set.replace(/-unrelated$/, '')}-${r.split}`;
      const line = JSON.stringify({ id: `${name}:${i}`, set: name, claim: r.claim, evidence: r.evidence, label: r.label });
      (evalRows.get(name) ?? evalRows.set(name, []).get(name)!).push(line);
    }
  });
  fs.closeSync(fd);
  for (const [name, lines] of evalRows) fs.writeFileSync(path.join(OUT, 'eval', `${name}.jsonl`), lines.join('\n') + '\n');
  // Its own random stream and file: pairs.jsonl stays what it is whether or not the dumps exist.
  const retrieved = retrievedNegatives(rng(SEED + 2));
  fs.writeFileSync(
    path.join(OUT, 'retrieved.jsonl'),
    retrieved.map((r) => JSON.stringify({ ...r, ids: tok.encodeOne(r.evidence, r.claim, MAX_LEN).ids }) + '\n').join(''),
  );
  console.log(`${retrieved.length} retrieved pairs → ${path.join(OUT, 'retrieved.jsonl')}`);
  console.log(`${rows.length} pairs → ${path.join(OUT, 'pairs.jsonl')}; eval sets: ${[...evalRows.keys()].sort().join(', ')}`);
  for (const [k, v] of [...counts].sort()) console.log(`  ${k}\t${v}`);
}

main().catch((e) => (console.error(e), process.exit(1)));
