/**
 * The reranker's training lists: a query, one or more relevant passages and hard negatives, written
 * as text to .cache/training/reranker/lists.jsonl (train_reranker.py tokenises them with the BERT
 * tokenizer.json the product reads, and renders each passage as the stage does: ranking/rerank/passage.ts).
 * Deterministic (fixed seed). Only training data: SciFact and Climate-FEVER dev claims never appear.
 *
 * - scifact: train-split claims against the product's own hybrid candidates (candidates.ts: BM25 and
 *   dense, fused); relevant = a window holding a rationale sentence (rel 2), another window of a
 *   cited abstract (rel 1, used only when the claim has no rationale); negatives = the other
 *   retrieved windows.
 * - climate-fever: train-split claims against their hybrid candidates; relevant = SUPPORTS / REFUTES
 *   evidence, negatives = the rest (the claim's own NOT_ENOUGH_INFO sentences among them).
 * - fever: the shared FEVER evidence → claim pairs (train part): a claim's evidence against BM25
 *   neighbours from the other claims' evidence.
 * - fnc1: FNC-1 headlines (train): related bodies (agree / disagree / discuss) against unrelated ones,
 *   each body read as its sentences closest to the headline.
 * - news: BBC, Reuters and HuffPost titles against the first window of their own body (HuffPost: the
 *   description), negatives = BM25 windows of other stories (near-duplicate titles skipped); no
 *   title in the passage (it is the query).
 *
 *   npx tsx training/reranker/lists.ts [--candidates .cache/training/reranker]
 */
import fs from 'node:fs';
import path from 'node:path';
import { IMPORT_FORMATS } from '../../crawler/import';
import { splitSentences } from '../../crawler/text/sentences';
import { makeSnippets } from '../../crawler/text/snippets';
import { overlapShare } from '../../ranking/evidence';
import { bm25Terms } from '../../ranking/query';
import { Fts } from '../bm25';
import { rng, sciClaims, shared, shuffle } from '../data';
import { fever, fnc1, type NliPairRow } from '../stance/nli-sets';
import type { DumpedClaim } from './candidates';

const SEED = 20261127;
const NEGATIVES = 15;
const NEWS = { bbc: 1200, reuters: 1200, huffpost: 800 } as const;
const FEVER_CLAIMS = 3000;

export interface ListCandidate {
  title: string;
  sentences: string[];
  /** The passage as stored (its sentences with their original spacing). */
  text: string;
  /** Evidence score of each sentence against the query (for the `best` input). */
  scores: number[];
  rel: number;
}
export interface TrainList {
  set: string;
  split: 'train';
  qid: string;
  query: string;
  cands: ListCandidate[];
}

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};

function readDump(file: string): DumpedClaim[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as DumpedClaim);
}

/** A passage scored on words only (no cached vectors outside the product's indexes). */
function wordsOnly(query: string, title: string, sentences: string[], rel: number): ListCandidate {
  const terms = bm25Terms(query);
  return { title, sentences, text: sentences.join(' '), scores: sentences.map((s) => overlapShare(terms, s)), rel };
}

function* scifactLists(dir: string): Generator<TrainList> {
  const evidence = new Map(sciClaims().map((c) => [String(c.id), c.evidence]));
  for (const c of readDump(path.join(dir, 'candidates-scifact.jsonl'))) {
    if (c.split !== 'train') continue;
    const ev = evidence.get(c.id) ?? {};
    const relevant = new Set(c.relevant);
    const rationale = (doc: string, [a, b]: [number, number]) => (ev[doc] ?? []).some((s) => s.sentences.some((i) => i >= a && i < b));
    const cands = c.cands.map((x) => ({
      title: x.title,
      sentences: x.sentences,
      text: x.text,
      scores: x.sentenceScores,
      rel: rationale(x.doc, x.span) ? 2 : relevant.has(x.doc) ? 1 : 0,
    }));
    if (cands.some((x) => x.rel > 0) && cands.some((x) => x.rel === 0))
      yield { set: 'scifact', split: 'train', qid: c.id, query: c.claim, cands };
  }
}

function* climateLists(dir: string): Generator<TrainList> {
  for (const c of readDump(path.join(dir, 'candidates-climate-fever.jsonl'))) {
    if (c.split !== 'train') continue;
    const relevant = new Set(c.relevant);
    const cands = c.cands.map((x) => ({
      title: x.title,
      sentences: x.sentences,
      text: x.text,
      scores: x.sentenceScores,
      rel: relevant.has(x.doc) ? 1 : 0,
    }));
    if (cands.some((x) => x.rel > 0) && cands.some((x) => x.rel === 0))
      yield { set: 'climate-fever', split: 'train', qid: c.id, query: c.claim, cands };
  }
}

function groupBy<T>(xs: Iterable<T>, key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const g = out.get(k);
    if (g) g.push(x);
    else out.set(k, [x]);
  }
  return out;
}

function* feverLists(rand: () => number): Generator<TrainList> {
  const rows = [...fever()];
  const pool = [...new Set(rows.map((r) => r.evidence))];
  const fts = new Fts();
  fts.add(pool.map((e, i) => ({ id: i + 1, title: '', body: e })));
  const claims = shuffle([...groupBy(rows, (r) => r.claim).entries()], rand).filter(([, g]) => g[0]!.split === 'train');
  for (const [claim, group] of claims.slice(0, FEVER_CLAIMS)) {
    const own = new Set(group.map((r) => r.evidence));
    const negs = fts
      .search(claim, NEGATIVES + own.size + 5)
      .map((h) => pool[h.id - 1]!)
      .filter((e) => !own.has(e))
      .slice(0, NEGATIVES);
    if (!negs.length) continue;
    yield {
      set: 'fever',
      split: 'train',
      qid: claim,
      query: claim,
      cands: [...[...own].map((e) => wordsOnly(claim, '', [e], 1)), ...negs.map((e) => wordsOnly(claim, '', [e], 0))],
    };
  }
}

function* fncLists(rand: () => number): Generator<TrainList> {
  const rows = [...fnc1()].filter((r) => r.split === 'train');
  const byHeadline = groupBy(rows, (r: NliPairRow) => r.claim);
  for (const [headline, group] of byHeadline) {
    const pos = group.filter((r) => r.set === 'fnc1');
    const neg = shuffle(
      group.filter((r) => r.set === 'fnc1-unrelated'),
      rand,
    ).slice(0, NEGATIVES);
    if (!pos.length || !neg.length) continue;
    const cand = (r: NliPairRow, rel: number) => wordsOnly(headline, '', splitSentences(r.evidence), rel);
    yield {
      set: 'fnc1',
      split: 'train',
      qid: headline,
      query: headline,
      cands: [...pos.slice(0, 4).map((r) => cand(r, 1)), ...neg.map((r) => cand(r, 0))],
    };
  }
}

interface Story {
  source: string;
  title: string;
  windows: string[][];
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
function similarTitles(a: string, b: string): boolean {
  const wa = words(a);
  const wb = words(b);
  const shared = [...wa].filter((w) => wb.has(w)).length;
  return shared / Math.max(1, Math.min(wa.size, wb.size)) >= 0.6;
}

async function stories(format: 'bbc' | 'reuters' | 'huffpost', where: string): Promise<Story[]> {
  const out: Story[] = [];
  for await (const a of IMPORT_FORMATS[format]!(where)) {
    const title = a.title.replace(/\s+/g, ' ').trim();
    const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
    // The body without the title (HuffPost's text opens with its headline).
    const sentences = splitSentences(a.text ?? '').filter((s) => norm(s) !== norm(title));
    const windows = makeSnippets(sentences).map((w) => sentences.slice(w.sentenceStart, w.sentenceEnd));
    if (title.split(' ').length >= 4 && windows.length) out.push({ source: format, title, windows });
  }
  return out;
}

async function* newsLists(rand: () => number): AsyncGenerator<TrainList> {
  const all = [
    ...(await stories('bbc', shared('news', 'bbc'))),
    ...(await stories('reuters', shared('news', 'reuters21578'))),
    ...(await stories('huffpost', shared('news', 'huffpost'))),
  ];
  const windows = all.flatMap((s, si) => s.windows.map((w) => ({ story: si, sentences: w })));
  const fts = new Fts();
  fts.add(windows.map((w, i) => ({ id: i + 1, title: '', body: w.sentences.join(' ') })));
  for (const [format, n] of Object.entries(NEWS)) {
    const picked = shuffle(
      all.map((s, i) => ({ s, i })).filter((x) => x.s.source === format),
      rand,
    ).slice(0, n);
    for (const { s, i } of picked) {
      const negs = fts
        .search(s.title, 60)
        .map((h) => windows[h.id - 1]!)
        .filter((w) => w.story !== i && !similarTitles(all[w.story]!.title, s.title))
        .slice(0, NEGATIVES);
      if (!negs.length) continue;
      yield {
        set: `news-${format}`,
        split: 'train',
        qid: `${format}:${i}`,
        query: s.title,
        cands: [wordsOnly(s.title, '', s.windows[0]!, 1), ...negs.map((w) => wordsOnly(s.title, '', w.sentences, 0))],
      };
    }
  }
}

async function main() {
  const dir = path.resolve(arg('candidates', '.cache/training/reranker'));
  const file = path.join(dir, 'lists.jsonl');
  const out = fs.createWriteStream(`${file}.tmp`);
  const counts: Record<string, number> = {};
  const write = (l: TrainList) => {
    out.write(JSON.stringify(l) + '\n');
    counts[l.set] = (counts[l.set] ?? 0) + 1;
  };
  const rand = rng(SEED);
  for (const l of scifactLists(dir)) write(l);
  for (const l of climateLists(dir)) write(l);
  for (const l of feverLists(rand)) write(l);
  for (const l of fncLists(rand)) write(l);
  for await (const l of newsLists(rand)) write(l);
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  fs.renameSync(`${file}.tmp`, file);
  console.log(`wrote ${file}: ${JSON.stringify(counts)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
