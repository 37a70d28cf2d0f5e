/**
 * In-domain stance pairs from the shared news corpora (BBC News, HuffPost, Reuters-21578), written to
 * .cache/training/stance/news-pairs.jsonl: for each sampled sentence S of an article,
 *   - a meaning-preserving rewrite of S → SUPPORTED (evidence S),
 *   - a rewrite of S with one fact changed → REFUTED (evidence S),
 *   - the meaning-preserving rewrite against S with one of its facts changed → REFUTED (the same
 *     claim with supporting and refuting evidence: the claim alone cannot tell the label),
 *   - a claim made from a sentence of ANOTHER article on the same topic → NEUTRAL (evidence S),
 *   - a claim made from S judged against another sentence of the same article that shares its words
 *     → NEUTRAL (topical overlap is not support).
 * Held-out articles (eval/news/heldout.ts) are skipped. Deterministic: fixed seed, corpora read in a fixed order.   npx tsx training/stance/generate.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { readBbc } from '../../crawler/import/bbc';
import { readHuffpost } from '../../crawler/import/huffpost';
import { readReuters } from '../../crawler/import/reuters';
import { splitSentences } from '../../crawler/text/sentences';
import type { ArticleInput } from '../../crawler/store/articles';
import { Lexicon } from '../../ranking/verdict/details/lexicon';
import { tokenize } from '../../ranking/verdict/details/tokens';
import { heldOutArticle } from '../../eval/news/heldout';
import { rng, shared, shuffle } from '../data';
import { contradictRewrite, namesIn, refutingEvidence, supportRewrite, type Rand } from './rewrite';

const SEED = 20261125;
const PER_CORPUS = { bbc: 2400, reuters: 1400, huffpost: 900 } as const;
export type Corpus = keyof typeof PER_CORPUS;

export interface StancePair {
  src: string;
  corpus: Corpus;
  doc: string;
  rule: string;
  label: 'SUPPORTED' | 'REFUTED' | 'NEUTRAL';
  claim: string;
  evidence: string;
}

export interface Sent {
  doc: string;
  corpus: Corpus;
  index: number;
  text: string;
}

export async function articles(corpus: Corpus): Promise<{ doc: string; sentences: string[] }[]> {
  const readers: Record<Corpus, () => AsyncIterable<ArticleInput>> = {
    bbc: () => readBbc(shared('news', 'bbc')),
    huffpost: () => readHuffpost(shared('news', 'huffpost', 'news_category_subset.json')),
    reuters: () => readReuters(shared('news', 'reuters21578')),
  };
  const all: { doc: string; text: string }[] = [];
  for await (const a of readers[corpus]()) all.push({ doc: a.externalId ?? a.canonicalUrl ?? '', text: a.text ?? '' });
  // Articles held out for dev claims (eval/news/heldout.ts) are never a source of training pairs, nor
  // is another copy of one (BBC News holds a few stories twice, under two titles).
  const key = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase().slice(0, 400);
  const held = new Set(all.filter((a) => heldOutArticle(corpus, a.doc)).map((a) => key(a.text)));
  return all
    .filter((a) => !heldOutArticle(corpus, a.doc) && !held.has(key(a.text)))
    .map((a) => ({ doc: a.doc, sentences: splitSentences(a.text) }));
}

export const usable = (s: string) => {
  const n = s.split(/\s+/).length;
  return n >= 7 && n <= 45 && /[a-z]/.test(s) && !/^[A-Z\s\d,.'-]+$/.test(s) && !s.includes('http');
};

/** Content-word index for finding a sentence of another article on the same topic. */
export class TopicIndex {
  private readonly postings = new Map<string, number[]>();
  constructor(
    private readonly sents: readonly Sent[],
    private readonly lex: Lexicon,
  ) {
    sents.forEach((s, i) => {
      for (const w of this.words(s.text)) {
        const p = this.postings.get(w);
        if (p) p.push(i);
        else this.postings.set(w, [i]);
      }
    });
  }

  words(text: string): Set<string> {
    return new Set(
      tokenize(text)
        .filter((t) => !t.stop && !t.digit && t.lower.length > 2)
        .map((t) => t.lemmas.at(-1)!),
    );
  }

  /** The most similar sentence satisfying `ok` (idf-weighted shared words), if any shares two words. */
  nearest(text: string, ok: (s: Sent) => boolean): Sent | null {
    const score = new Map<number, number>();
    for (const w of this.words(text)) {
      const p = this.postings.get(w);
      if (!p || p.length > 2000) continue;
      const idf = this.lex.idf(w);
      for (const i of p) score.set(i, (score.get(i) ?? 0) + idf);
    }
    let best: Sent | null = null;
    let bestScore = 0;
    for (const [i, sc] of score) {
      const s = this.sents[i]!;
      if (sc > bestScore && ok(s)) {
        best = s;
        bestScore = sc;
      }
    }
    return bestScore >= 8 ? best : null;
  }
}

function pairsFor(s: Sent, article: readonly string[], names: readonly string[], topics: TopicIndex, rand: Rand): StancePair[] {
  const base = { src: 'news-gen', corpus: s.corpus, doc: s.doc };
  const out: StancePair[] = [];
  const sup = supportRewrite(s.text, rand);
  if (sup) out.push({ ...base, rule: sup.rule, label: 'SUPPORTED', claim: sup.text, evidence: s.text });
  const con = contradictRewrite(s.text, names, rand);
  if (con) out.push({ ...base, rule: con.rule, label: 'REFUTED', claim: con.text, evidence: s.text });
  // The supported claim again, against the sentence with one of its facts changed: the same claim both ways.
  const against = sup && refutingEvidence(s.text, sup.text, names, rand);
  if (against) out.push({ ...base, rule: against.rule, label: 'REFUTED', claim: sup!.text, evidence: against.text });
  if (rand() < 0.5) {
    const other = topics.nearest(s.text, (o) => o.doc !== s.doc);
    const claim = other && supportRewrite(other.text, rand);
    if (claim) out.push({ ...base, rule: 'other-article', label: 'NEUTRAL', claim: claim.text, evidence: s.text });
  } else if (sup) {
    const sibling = article.filter((t, i) => Math.abs(i - s.index) > 1 && usable(t));
    const near = sibling.length
      ? topics.nearest(s.text, (o) => o.doc === s.doc && o.index !== s.index && Math.abs(o.index - s.index) > 1)
      : null;
    if (near) out.push({ ...base, rule: 'same-article', label: 'NEUTRAL', claim: sup.text, evidence: near.text });
  }
  return out;
}

export async function generate(lex: Lexicon, seed = SEED): Promise<StancePair[]> {
  const rand = rng(seed);
  const out: StancePair[] = [];
  for (const corpus of Object.keys(PER_CORPUS) as Corpus[]) {
    const arts = await articles(corpus);
    const sents: Sent[] = arts.flatMap((a) =>
      a.sentences.map((text, index) => ({ doc: a.doc, corpus, index, text })).filter((s) => usable(s.text)),
    );
    const byDoc = new Map(arts.map((a) => [a.doc, a.sentences]));
    const topics = new TopicIndex(sents, lex);
    const namesByDoc = new Map(arts.map((a) => [a.doc, [...new Set(a.sentences.flatMap(namesIn))]]));
    for (const s of shuffle(sents, rand).slice(0, PER_CORPUS[corpus]))
      out.push(...pairsFor(s, byDoc.get(s.doc)!, namesByDoc.get(s.doc)!, topics, rand));
  }
  return out;
}

async function main() {
  const file = path.resolve(process.argv[2] ?? '.cache/training/stance/news-pairs.jsonl');
  const lex = Lexicon.read(path.resolve('models/quin-align/lexicon.json.gz'));
  const pairs = await generate(lex);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, pairs.map((p) => JSON.stringify(p)).join('\n') + '\n');
  const count = (k: (p: StancePair) => string) =>
    Object.fromEntries([...pairs.reduce((m, p) => m.set(k(p), (m.get(k(p)) ?? 0) + 1), new Map<string, number>())].sort());
  console.log(
    `${file}: ${pairs.length} pairs`,
    JSON.stringify({
      label: count((p) => p.label),
      corpus: count((p) => p.corpus),
      rule: count((p) => `${p.label}:${p.rule.split('+').at(-1)}`),
    }),
  );
}

if (process.argv[1]?.endsWith('generate.ts')) main().catch((e) => (console.error(e), process.exit(1)));
