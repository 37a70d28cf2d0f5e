/**
 * Training data for our own reranker, written as token ids (the product's own BERT tokenizer through
 * lib/models, so training and serving tokenize identically) to .cache/training/data/reranker.jsonl,
 * and the SciFact / Climate-FEVER claim–evidence pairs the stance model learns from (as text; the
 * stance data is built by training/stance/build-pairs.ts). Deterministic (fixed seed).
 *
 *   npx tsx training/prepare.ts reranker
 *
 * Data and split (docs/models.md):
 * - SciFact claims (claims_train.jsonl), split by eval/splits.ts: train claims are fitted on, dev
 *   claims are only scored (reranking dev lists are written with split = "dev").
 * - Reranker: BM25 (SQLite FTS5, porter) top candidates over 5-sentence snippets, relevant = snippet
 *   of a cited doc; Climate-FEVER claims against the pool of all evidence sentences; inverse-cloze
 *   pairs from BBC News (a sentence as query, its window without it as the positive, BM25 negatives).
 * - Stance pairs: SciFact rationales (SUPPORT → entailment, CONTRADICT → contradiction, other
 *   sentences of the cited docs → neutral) and Climate-FEVER evidence labels.
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeSnippets } from '../crawler/text/snippets';
import { splitOf } from '../eval/splits';
import { TextTokenizer } from '../lib/models/tokenizer';
import { Fts } from './bm25';
import { bbcArticles, climateClaims, rng, sciClaims, sciCorpus, shared, shuffle } from './data';

const OUT = path.resolve('.cache/training/data');
const MAX_LEN = 256;
const SEED = 13;
const TRAIN_CANDS = 50;
const DEV_CANDS = 100;
const ICT_QUERIES = 1500;

export const passageText = (title: string, text: string) => (title ? `${title}. ${text}` : text);

const tokJson = JSON.parse(fs.readFileSync(shared('tokenizers', 'bert-base-uncased', 'tokenizer.json'), 'utf8'));
const tokCfg = JSON.parse(fs.readFileSync(shared('tokenizers', 'bert-base-uncased', 'tokenizer_config.json'), 'utf8'));
const tok = new TextTokenizer(tokJson, tokCfg);
const pair = (a: string, b: string) => tok.encodeOne(a, b, MAX_LEN).ids;

function writer(file: string) {
  fs.mkdirSync(OUT, { recursive: true });
  const fd = fs.openSync(path.join(OUT, file), 'w');
  let n = 0;
  return {
    write: (o: unknown) => {
      fs.writeSync(fd, JSON.stringify(o) + '\n');
      n++;
    },
    close: () => {
      fs.closeSync(fd);
      console.log(`${file}: ${n} rows`);
    },
  };
}

function scifactReranker(w: ReturnType<typeof writer>) {
  const docs = sciCorpus();
  const snippets: { id: number; doc: number; title: string; text: string; sent: [number, number] }[] = [];
  for (const d of docs)
    for (const s of makeSnippets(d.sentences))
      snippets.push({ id: snippets.length + 1, doc: d.id, title: d.title, text: s.text, sent: [s.sentenceStart, s.sentenceEnd] });
  const fts = new Fts();
  fts.add(snippets.map((s) => ({ id: s.id, title: s.title, body: s.text })));
  const byId = new Map(snippets.map((s) => [s.id, s]));
  for (const c of sciClaims()) {
    const split = splitOf('scifact', c.id);
    const hits = fts.search(c.claim, split === 'dev' ? DEV_CANDS : TRAIN_CANDS);
    const cited = new Set(c.cited);
    const cands = hits.map((h) => ({ snip: byId.get(h.id)!, bm25: h.score }));
    if (split === 'train') {
      // Make sure every training list has its evidence windows (the listwise loss needs a positive).
      const have = new Set(cands.map((x) => x.snip.id));
      for (const [doc, sets] of Object.entries(c.evidence)) {
        const sents = new Set(sets.flatMap((s) => s.sentences));
        const extra = snippets.filter(
          (s) => s.doc === Number(doc) && !have.has(s.id) && [...sents].some((i) => i >= s.sent[0] && i < s.sent[1]),
        );
        for (const s of extra.slice(0, 2)) cands.push({ snip: s, bm25: 0 });
      }
      if (!cands.some((x) => cited.has(x.snip.doc))) continue;
    }
    // rel 2: the window holds a rationale sentence; 1: another window of a cited abstract.
    const rationale = (s: (typeof snippets)[number]) =>
      (c.evidence[String(s.doc)] ?? []).some((set) => set.sentences.some((i) => i >= s.sent[0] && i < s.sent[1]));
    w.write({
      src: 'scifact',
      split,
      qid: c.id,
      cited: c.cited,
      cands: cands.map((x) => ({
        ids: pair(c.claim, passageText(x.snip.title, x.snip.text)),
        doc: x.snip.doc,
        bm25: x.bm25,
        rel: rationale(x.snip) ? 2 : cited.has(x.snip.doc) ? 1 : 0,
      })),
    });
  }
}

function climateReranker(w: ReturnType<typeof writer>) {
  const claims = climateClaims();
  const pool = new Map<string, { id: number; title: string; text: string }>();
  for (const c of claims)
    for (const e of c.evidences) if (!pool.has(e.text)) pool.set(e.text, { id: pool.size + 1, title: e.article, text: e.text });
  const fts = new Fts();
  fts.add([...pool.values()].map((p) => ({ id: p.id, title: p.title, body: p.text })));
  const byId = new Map([...pool.values()].map((p) => [p.id, p]));
  for (const c of claims) {
    const rel = new Set(c.evidences.filter((e) => e.label !== 'NOT_ENOUGH_INFO').map((e) => pool.get(e.text)!.id));
    if (!rel.size) continue;
    const ids = fts.search(c.claim, 30).map((h) => h.id);
    for (const r of rel) if (!ids.includes(r)) ids.push(r);
    w.write({
      src: 'climate-fever',
      split: splitOf('climate-fever', c.id),
      qid: c.id,
      cands: ids.map((id) => ({ ids: pair(c.claim, passageText(byId.get(id)!.title, byId.get(id)!.text)), rel: rel.has(id) ? 1 : 0 })),
    });
  }
}

function ictReranker(w: ReturnType<typeof writer>, rand: () => number) {
  const arts = bbcArticles();
  const windows: { id: number; art: number; title: string; sentences: string[] }[] = [];
  arts.forEach((a, ai) => {
    for (const s of makeSnippets(a.sentences))
      windows.push({ id: windows.length + 1, art: ai, title: a.title, sentences: a.sentences.slice(s.sentenceStart, s.sentenceEnd) });
  });
  const fts = new Fts();
  fts.add(windows.map((x) => ({ id: x.id, title: x.title, body: x.sentences.join(' ') })));
  let made = 0;
  for (const win of shuffle(windows, rand)) {
    if (made >= ICT_QUERIES) break;
    const k = Math.floor(rand() * win.sentences.length);
    const q = win.sentences[k]!;
    const words = q.split(/\s+/).length;
    if (words < 8 || words > 40 || win.sentences.length < 3) continue;
    // As in ICT, the query sentence stays in its context 10% of the time (exact match is a real signal).
    const ctx = rand() < 0.1 ? win.sentences : win.sentences.filter((_, i) => i !== k);
    const negs = fts
      .search(q, 40)
      .map((h) => windows[h.id - 1]!)
      .filter((x) => x.art !== win.art)
      .slice(0, 19);
    const cands = [
      { title: win.title, text: ctx.join(' '), rel: 1 },
      ...negs.map((x) => ({ title: x.title, text: x.sentences.join(' '), rel: 0 })),
    ];
    w.write({
      src: 'ict',
      split: 'train',
      qid: `bbc:${win.id}:${k}`,
      cands: cands.map((x) => ({ ids: pair(q, passageText(x.title, x.text)), rel: x.rel })),
    });
    made++;
  }
}

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

function main() {
  const rand = rng(SEED);
  const what = process.argv[2] ?? 'all';
  fs.mkdirSync(OUT, { recursive: true });
  if (what === 'all' || what === 'reranker') {
    const w = writer('reranker.jsonl');
    scifactReranker(w);
    climateReranker(w);
    ictReranker(w, rand);
    w.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) main();
