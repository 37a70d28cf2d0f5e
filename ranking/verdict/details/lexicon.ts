/**
 * The aligner's lexicon (models/quin-align/lexicon.json.gz, built by training/stance/build-lexicon.ts
 * from WordNet and corpus word frequencies) and the word relations read from it.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { z } from 'zod';
import { createError } from '../../../lib/errors';
import { DIRECTION, directionOf, NEGATING_PREFIXES, REVIEWED_ANTONYMS } from './cues';

// The tables hold ~150k entries: zod checks their shape (records of arrays), and the entries are
// checked while they are copied into maps (a full zod parse of every entry takes ~15 s).
const LexiconFile = z.object({
  version: z.literal(1),
  senses: z.record(z.string(), z.unknown()),
  hyper: z.array(z.unknown()),
  antonyms: z.record(z.string(), z.unknown()),
  derived: z.record(z.string(), z.unknown()),
  idf: z.record(z.string(), z.unknown()),
});
interface LexiconData {
  senses: Record<string, number[]>;
  hyper: number[][];
  antonyms: Record<string, string[]>;
  derived: Record<string, string[]>;
  idf: Record<string, number>;
}

function entries<T>(table: Record<string, unknown>, ok: (v: unknown) => v is T, name: string): Map<string, T> {
  const out = new Map<string, T>();
  for (const [k, v] of Object.entries(table)) {
    if (!ok(v)) throw createError('MODEL_INVALID', `lexicon ${name}["${k}"] has the wrong type`);
    out.set(k, v);
  }
  return out;
}
const isNums = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => Number.isInteger(x) && x >= 0);
const isStrs = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * How a claim word relates to an evidence word, from the claim's side: `hypernym` = the claim's word
 * is the more general one (evidence "sedan", claim "car": entailed), `hyponym` = the claim's is more
 * specific (not entailed), `antonym` = opposite meaning or direction.
 */
export type Relation = 'exact' | 'lemma' | 'derived' | 'synonym' | 'direction' | 'hypernym' | 'hyponym' | 'antonym';

/** Relations under which the evidence word says what the claim's word says. */
export const EQUIVALENT: ReadonlySet<Relation> = new Set(['exact', 'lemma', 'derived', 'synonym', 'direction', 'hypernym']);

const HYPERNYM_DEPTH = 4;

export class Lexicon {
  private readonly senses: Map<string, readonly number[]>;
  private readonly hyper: readonly (readonly number[])[];
  private readonly antonyms: Map<string, readonly string[]>;
  private readonly derived: Map<string, readonly string[]>;
  private readonly idfs: Map<string, number>;
  readonly maxIdf: number;
  private readonly ancestorsMemo = new Map<number, Set<number>>();
  private readonly relationMemo = new Map<string, Relation | null>();
  private readonly wordAncestorsMemo = new Map<string, Set<number>>();

  private constructor(data: { [K in keyof LexiconData]: Record<string, unknown> | unknown[] }) {
    this.senses = entries(data.senses as Record<string, unknown>, isNums, 'senses');
    const hyper = data.hyper as unknown[];
    if (!hyper.every(isNums)) throw createError('MODEL_INVALID', 'lexicon hyper must hold lists of synset numbers');
    this.hyper = hyper;
    this.antonyms = entries(data.antonyms as Record<string, unknown>, isStrs, 'antonyms');
    this.derived = entries(data.derived as Record<string, unknown>, isStrs, 'derived');
    this.idfs = entries(data.idf as Record<string, unknown>, isNum, 'idf');
    this.maxIdf = this.idfs.get('') ?? 10;
  }

  static read(file: string): Lexicon {
    let raw: unknown;
    try {
      const buf = fs.readFileSync(file);
      raw = JSON.parse((file.endsWith('.gz') ? zlib.gunzipSync(buf) : buf).toString('utf8'));
    } catch (e) {
      throw createError('MODEL_INVALID', `${file}: cannot read the lexicon (${e instanceof Error ? e.message : String(e)})`);
    }
    const parsed = LexiconFile.safeParse(raw);
    if (!parsed.success)
      throw createError('MODEL_INVALID', `${file}: not a lexicon file (${parsed.error.issues[0]?.message ?? 'invalid'})`);
    try {
      return new Lexicon(parsed.data);
    } catch (e) {
      throw createError('MODEL_INVALID', `${file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** A lexicon from plain data (tests). */
  static of(data: Partial<LexiconData>): Lexicon {
    return new Lexicon({ senses: {}, hyper: [], antonyms: {}, derived: {}, idf: {}, ...data });
  }

  /** Inverse document frequency of a lower-cased word (rare and unknown words weigh most). */
  idf(word: string): number {
    return this.idfs.get(word) ?? this.maxIdf;
  }

  /** Is the lower-cased word an English word WordNet knows (rather than a name)? */
  known(word: string): boolean {
    return this.senses.has(word);
  }

  /** Is this (lower-cased, space-joined) phrase a WordNet collocation, e.g. "central bank"? */
  isCollocation(phrase: string): boolean {
    return phrase.includes(' ') && this.senses.has(phrase);
  }

  private ancestors(synset: number): Set<number> {
    let out = this.ancestorsMemo.get(synset);
    if (out) return out;
    out = new Set();
    let frontier = [synset];
    for (let d = 0; d < HYPERNYM_DEPTH && frontier.length; d++) {
      const next: number[] = [];
      for (const s of frontier)
        for (const h of this.hyper[s] ?? [])
          if (!out.has(h)) {
            out.add(h);
            next.push(h);
          }
      frontier = next;
    }
    this.ancestorsMemo.set(synset, out);
    return out;
  }

  private synsets(lemmas: readonly string[]): number[] {
    return lemmas.flatMap((l) => this.senses.get(l) ?? []);
  }

  /** Is any lemma of `a` an antonym of any lemma of `b` (WordNet, the reviewed list, negating prefixes or opposite directions)? */
  opposite(a: readonly string[], b: readonly string[]): boolean {
    for (const x of a) {
      const wordnet = this.antonyms.get(x);
      const reviewed = REVIEWED_ANTONYMS.get(x);
      for (const y of b) {
        if (wordnet?.includes(y) || reviewed?.has(y)) return true;
        if (DIRECTION[x] && DIRECTION[y] && DIRECTION[x] !== DIRECTION[y]) return true;
        if (negatedForm(x, y) || negatedForm(y, x)) return true;
      }
    }
    return false;
  }

  /** The relation of a claim word to an evidence word (both as lemma lists, lower-cased form first), or null. */
  relate(claim: readonly string[], evidence: readonly string[]): Relation | null {
    if (claim[0] === evidence[0]) return 'exact';
    const key = `${claim.join('|')}\t${evidence.join('|')}`;
    const memo = this.relationMemo.get(key);
    if (memo !== undefined) return memo;
    const r = this.relateUncached(claim, evidence);
    if (this.relationMemo.size > 500_000) this.relationMemo.clear();
    this.relationMemo.set(key, r);
    return r;
  }

  /** Every ancestor of every sense of a word (its lemma list), once per word: a claim word meets ~50 sentence words. */
  private wordAncestors(lemmas: readonly string[]): Set<number> {
    const key = lemmas.join('|');
    let out = this.wordAncestorsMemo.get(key);
    if (out) return out;
    out = new Set();
    for (const s of this.synsets(lemmas)) for (const h of this.ancestors(s)) out.add(h);
    if (this.wordAncestorsMemo.size > 100_000) this.wordAncestorsMemo.clear();
    this.wordAncestorsMemo.set(key, out);
    return out;
  }

  private relateUncached(claim: readonly string[], evidence: readonly string[]): Relation | null {
    if (claim.some((l) => evidence.includes(l))) return 'lemma';
    // Opposites first: WordNet puts "rise" and "fall" in one rare sense ("come up"/"go down" of the sun) no more than it should.
    if (this.opposite(claim, evidence)) return 'antonym';
    if (claim.some((l) => (this.derived.get(l) ?? []).some((d) => evidence.includes(d)))) return 'derived';
    const cs = this.synsets(claim);
    const es = this.synsets(evidence);
    if (cs.length && es.length) {
      const cset = new Set(cs);
      if (es.some((s) => cset.has(s))) return 'synonym';
      const eAncestors = this.wordAncestors(evidence);
      if (cs.some((s) => eAncestors.has(s))) return 'hypernym';
      const cAncestors = this.wordAncestors(claim);
      if (es.some((s) => cAncestors.has(s))) return 'hyponym';
    }
    const dc = directionOf(claim);
    const de = directionOf(evidence);
    if (dc && de && dc === de) return 'direction';
    return null;
  }
}

/** "unaffected" / "affected", "non-smokers" / "smokers", "insufficient" / "sufficient". */
function negatedForm(neg: string, plain: string): boolean {
  if (plain.length < 4) return false;
  return NEGATING_PREFIXES.some((p) => neg === p + plain || neg === `${p}-${plain}`);
}
