/**
 * Minimal pairs at scale, for the reader's second phase (the recipe of VitaminC and CrossAug: pairs
 * whose only difference is the detail that decides the label). From news articles never evaluated on
 * (Reuters-21578, and the BBC and HuffPost articles that eval/news/heldout.ts does not hold out), for
 * each sampled sentence S of an article:
 *   - a claim C made from S (its core statement, shortened or reworded as a reader would) → SUPPORTED;
 *   - C with exactly one detail changed (eval/swap: a name of the same type from the same article, a
 *     place, an amount, an ordinal, a score, a date, the direction, the polarity, the roles) → REFUTED;
 *   - C against S with one of C's details changed in S → REFUTED (the same claim both ways);
 *   - C against an on-topic sentence about another fact (same article, or another article on the same
 *     topic) → NOT ENOUGH INFO.
 * A fixed share of the articles (by a hash of the article) is `dev`: never trained on, read by the
 * trainer's held-out checks and by the verdict's reading combiner (train_verdict.py), where the
 * reader's probabilities must be out of sample. Writes .cache/training/stance/minimal.jsonl in the
 * trainer's format (token ids of the product's tokenizer). Deterministic.
 *
 *   npx tsx training/stance/minimal-pairs.ts [--per-corpus reuters=14000,bbc=7000,huffpost=3500]
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Rand } from '../../eval/swap/rewrite';
import { claimFrom, namePool, swapsOf, type NamePool, type Swap, type SwapKind } from '../../eval/swap/swap';
import { TextTokenizer } from '../../lib/models/tokenizer';
import { Lexicon } from '../../ranking/verdict/details/lexicon';
import { rng, shared, shuffle } from '../data';
import { articles, TopicIndex, usable, type Corpus, type Sent } from './generate';

const SEED = 20261129;
const OUT = path.resolve('.cache/training/stance/minimal.jsonl');
const MAX_LEN = 128;
const DEFAULT_PER_CORPUS: Record<Corpus, number> = { reuters: 14000, bbc: 7000, huffpost: 3500 };
/** Share of the articles whose pairs are `dev` (never trained on). */
const DEV_FRACTION = 0.12;
/** Rarer kinds of change weigh more: a negation or a number can be made of almost any sentence. */
const KIND_WEIGHT: Record<SwapKind, number> = {
  name: 2,
  place: 3,
  number: 1.5,
  ordinal: 3,
  score: 3,
  date: 2,
  direction: 2.5,
  negation: 0.7,
  roles: 4,
};

export interface MinimalPair {
  set: 'news-minimal';
  split: 'train' | 'dev';
  group: string;
  label: 'SUPPORTS' | 'REFUTES' | 'NOT_ENOUGH_INFO';
  rule: string;
  kind?: SwapKind;
  claim: string;
  evidence: string;
}

export function splitOfArticle(corpus: Corpus, doc: string): 'train' | 'dev' {
  const h = crypto.createHash('sha256').update(`minimal:${corpus}:${doc}`).digest();
  return h.readUInt32BE(0) / 0x1_0000_0000 < DEV_FRACTION ? 'dev' : 'train';
}

function weighted(swaps: readonly Swap[], rand: Rand): Swap | null {
  if (!swaps.length) return null;
  let r = rand() * swaps.reduce((a, s) => a + KIND_WEIGHT[s.kind], 0);
  for (const s of swaps) if ((r -= KIND_WEIGHT[s.kind]) <= 0) return s;
  return swaps.at(-1)!;
}

/** A sentence of prose, not a team sheet or a table row ("C Paterson; S Danielli, A Craig, …"). */
const prose = (s: string) => {
  const initials = s.split(/\s+/).filter((w) => /^\p{Lu}\.?$/u.test(w)).length;
  return (s.match(/;/g) ?? []).length < 3 && initials < 3;
};

const words = (s: string) => new Set((s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).map((w) => w));

function pairsFor(s: Sent, pool: NamePool, topics: TopicIndex, lex: Lexicon, rand: Rand): MinimalPair[] {
  const split = splitOfArticle(s.corpus, s.doc);
  const base = { set: 'news-minimal' as const, split, group: `${s.corpus}:${s.doc}` };
  const claim = claimFrom(s.text, rand);
  if (!claim) return [];
  const out: MinimalPair[] = [{ ...base, label: 'SUPPORTS', rule: `support:${claim.rule}`, claim: claim.text, evidence: s.text }];
  const changed = weighted(swapsOf(claim.text, pool, lex, rand), rand);
  if (changed)
    out.push({ ...base, label: 'REFUTES', rule: `claim:${changed.kind}`, kind: changed.kind, claim: changed.text, evidence: s.text });
  // The same claim against the sentence with one of the claim's details changed in it.
  const said = words(claim.text);
  const inEvidence = swapsOf(s.text, pool, lex, rand).filter(
    (x) => x.kind === 'negation' || x.kind === 'roles' || [...words(x.from)].some((w) => said.has(w)),
  );
  const against = weighted(inEvidence, rand);
  if (against)
    out.push({
      ...base,
      label: 'REFUTES',
      rule: `evidence:${against.kind}`,
      kind: against.kind,
      claim: claim.text,
      evidence: against.text,
    });
  const other =
    rand() < 0.5
      ? topics.nearest(s.text, (o) => o.doc !== s.doc)
      : topics.nearest(s.text, (o) => o.doc === s.doc && Math.abs(o.index - s.index) > 1 && o.text !== s.text);
  if (other)
    out.push({
      ...base,
      label: 'NOT_ENOUGH_INFO',
      rule: other.doc === s.doc ? 'same-article' : 'other-article',
      claim: claim.text,
      evidence: other.text,
    });
  return out;
}

export async function minimalPairs(lex: Lexicon, perCorpus = DEFAULT_PER_CORPUS, seed = SEED): Promise<MinimalPair[]> {
  const rand = rng(seed);
  const out: MinimalPair[] = [];
  for (const corpus of Object.keys(perCorpus) as Corpus[]) {
    const arts = await articles(corpus);
    const sents: Sent[] = arts.flatMap((a) =>
      a.sentences.map((text, index) => ({ doc: a.doc, corpus, index, text })).filter((s) => usable(s.text) && prose(s.text)),
    );
    const byDoc = new Map(arts.map((a) => [a.doc, a.sentences]));
    const topics = new TopicIndex(sents, lex);
    const pools = new Map<string, NamePool>();
    // Places met so far in the corpus: an article naming one place can still have it swapped.
    const places: string[] = [];
    let n = 0;
    for (const s of shuffle(sents, rand).slice(0, perCorpus[corpus])) {
      let pool = pools.get(s.doc);
      if (!pool) {
        pool = namePool(byDoc.get(s.doc)!, lex, shuffle(places, rand).slice(0, 20));
        places.push(...pool.place.slice(0, 5).filter((p) => !places.includes(p)));
        pools.set(s.doc, pool);
      }
      out.push(...pairsFor(s, pool, topics, lex, rand));
      if (++n % 2000 === 0) console.log(`${corpus}: ${n} sentences, ${out.length} pairs`);
    }
  }
  return out;
}

async function main() {
  const arg = process.argv.indexOf('--per-corpus');
  const per = { ...DEFAULT_PER_CORPUS };
  if (arg > 0)
    for (const kv of (process.argv[arg + 1] ?? '').split(',')) {
      const [k, v] = kv.split('=');
      if (k && k in per) per[k as Corpus] = Number(v);
    }
  const lex = Lexicon.read(path.resolve('models/quin-align/lexicon.json.gz'));
  const pairs = await minimalPairs(lex, per);
  const tok = new TextTokenizer(
    JSON.parse(fs.readFileSync(shared('tokenizers', 'bert-base-uncased', 'tokenizer.json'), 'utf8')),
    JSON.parse(fs.readFileSync(shared('tokenizers', 'bert-base-uncased', 'tokenizer_config.json'), 'utf8')),
  );
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  const fd = fs.openSync(OUT, 'w');
  for (const p of pairs) fs.writeSync(fd, JSON.stringify({ ...p, ids: tok.encodeOne(p.evidence, p.claim, MAX_LEN).ids }) + '\n');
  fs.closeSync(fd);
  const count = (k: (p: MinimalPair) => string) =>
    Object.fromEntries([...pairs.reduce((m, p) => m.set(k(p), (m.get(k(p)) ?? 0) + 1), new Map<string, number>())].sort());
  console.log(
    `${OUT}: ${pairs.length} pairs`,
    JSON.stringify({ split: count((p) => p.split), label: count((p) => p.label), rule: count((p) => p.rule) }),
  );
}

if (process.argv[1]?.endsWith('minimal-pairs.ts')) main().catch((e) => (console.error(e), process.exit(1)));
