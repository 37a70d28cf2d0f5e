/**
 * Prepares the contrastive training of the static encoder for the PyTorch side
 * (train_contrastive.py): every text tokenised by the product's own tokenizer (so training and
 * serving cut words identically), the pairs of pairs.ts with BM25 hard negatives mined per source
 * (an in-memory FTS5 index with the product's porter stemming), the starting table (the distilled
 * model, dequantised), and the dev sets the trainer reports on. Pure data out; deterministic.
 *
 * Layout of <out>/ (little-endian raw arrays, described by manifest.json):
 *   base.f32              starting table, vocab × dim
 *   text_off.i64, text_tok.i32        token ids of text t: text_tok[text_off[t] .. text_off[t+1])
 *   pas_off.i64, pas_txt.i32          text ids of passage p (its sentences, and its title when pooled with it)
 *   ex_query.i32, ex_src.i32          per example: query text id, source index
 *   ex_pos_off.i64, ex_pos.i32        positive passages of example e
 *   ex_neg.i32                        NEGATIVES per example (−1 = none), hard negatives first
 *   eval_<name>_query.i32, eval_<name>_pas.i32, eval_<name>_doc.i32   dev queries, their corpus's passages and each passage's document
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeStaticModel } from '../../indexer/encoders/static/model-file';
import { StaticTokenizer } from '../../indexer/encoders/static/tokenizer';
import { makeSnippets, DEFAULT_WINDOW, splitSentences } from '../../crawler';
import { loadClimateFever, loadScifactClaims, selectQueries } from '../../eval/datasets';
import { sharedDataDir } from '../../lib/paths';
import { Fts } from '../bm25';
import { readPairSources, type PairSource, type Passage } from './pairs';

/** Hard negatives kept per example (the trainer draws from them). */
export const NEGATIVES = 8;
/** BM25 depth searched for them. */
const MINE_DEPTH = 40;
/** BM25 ranks skipped first (the very top often holds unlabelled relevant passages). */
const SKIP_TOP = 2;

class Texts {
  readonly ids = new Map<string, number>();
  readonly list: string[] = [];
  id(t: string): number {
    let i = this.ids.get(t);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(t);
      this.ids.set(t, i);
    }
    return i;
  }
}

function write(dir: string, name: string, a: Int32Array | Float32Array | BigInt64Array): void {
  fs.writeFileSync(path.join(dir, name), Buffer.from(a.buffer, a.byteOffset, a.byteLength));
}

function csr(lists: readonly (readonly number[])[]): { off: BigInt64Array; flat: Int32Array } {
  const off = new BigInt64Array(lists.length + 1);
  let n = 0;
  lists.forEach((l, i) => {
    off[i] = BigInt(n);
    n += l.length;
  });
  off[lists.length] = BigInt(n);
  const flat = new Int32Array(n);
  let at = 0;
  for (const l of lists) for (const x of l) flat[at++] = x;
  return { off, flat };
}

/** BM25 hard negatives of each example from its source's passages: explicit negatives first, then BM25 ranks past the top few. */
function mine(src: PairSource): number[][] {
  const fts = new Fts();
  fts.add(src.passages.map((p, i) => ({ id: i + 1, title: p.title ?? '', body: p.sentences.join(' ') })));
  return src.examples.map((e) => {
    const pos = new Set(e.positives);
    const posText = new Set(e.positives.map((i) => src.passages[i]!.sentences.join(' ')));
    const out: number[] = [...(e.negatives ?? [])].filter((i) => !pos.has(i));
    const hits = fts.search(e.query, MINE_DEPTH).map((h) => h.id - 1);
    const fresh = hits.filter((i) => !pos.has(i) && !posText.has(src.passages[i]!.sentences.join(' ')) && !out.includes(i));
    out.push(...fresh.slice(Math.min(SKIP_TOP, Math.max(0, fresh.length - NEGATIVES))));
    return out.slice(0, NEGATIVES);
  });
}

interface EvalSet {
  name: string;
  queries: string[];
  /** Relevant document indexes per query. */
  qrels: number[][];
  docs: string[];
  passages: Passage[];
  passageDoc: number[];
}

/** SciFact dev: the dev claims against every abstract's snippet windows (title pooled), as `quin eval` indexes them. */
function scifactDev(): EvalSet {
  const shared = sharedDataDir();
  const queries = selectQueries(loadScifactClaims(path.join(shared, 'scifact', 'claims_train.jsonl')), 'dev');
  const docs: string[] = [];
  const passages: Passage[] = [];
  const passageDoc: number[] = [];
  for (const line of fs.readFileSync(path.join(shared, 'scifact', 'corpus.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const d = JSON.parse(line) as { doc_id: number; title: string; sentences: string[] };
    const sentences = d.sentences.map((s) => s.replace(/\s+/g, ' ').trim()).filter(Boolean);
    for (const w of makeSnippets(sentences, DEFAULT_WINDOW)) {
      passages.push({ key: '', title: d.title.trim(), sentences: sentences.slice(w.sentenceStart, w.sentenceEnd) });
      passageDoc.push(docs.length);
    }
    docs.push(String(d.doc_id));
  }
  const docIndex = new Map(docs.map((d, i) => [d, i]));
  return {
    name: 'scifact',
    queries: queries.map((q) => q.text),
    qrels: queries.map((q) => [...q.relevant].map((d) => docIndex.get(d)).filter((i): i is number => i !== undefined)),
    docs,
    passages,
    passageDoc,
  };
}

/** Climate-FEVER dev: the dev claims against every evidence sentence of the file (one document each, titled by its article). */
function climateDev(): EvalSet {
  const { queries: all, claims } = loadClimateFever(path.join(sharedDataDir(), 'climate-fever', 'claims.jsonl'));
  const queries = selectQueries(all, 'dev');
  const byId = new Map<string, { title: string; text: string }>();
  for (const c of claims)
    for (const e of c.evidences)
      if (!byId.has(e.evidence_id) && e.evidence.trim()) byId.set(e.evidence_id, { title: e.article, text: e.evidence });
  const docs = [...byId.keys()].sort();
  const docIndex = new Map(docs.map((d, i) => [d, i]));
  const passages = docs.map((d) => ({ key: d, title: byId.get(d)!.title.trim(), sentences: splitSentences(byId.get(d)!.text) }));
  return {
    name: 'climate',
    queries: queries.map((q) => q.text),
    qrels: queries.map((q) => [...q.relevant].map((d) => docIndex.get(d)).filter((i): i is number => i !== undefined)),
    docs,
    passages,
    passageDoc: docs.map((_, i) => i),
  };
}

export async function prepare(opts: { base: string; out: string; log: (s: string) => void }): Promise<Record<string, unknown>> {
  const { out, log } = opts;
  fs.mkdirSync(out, { recursive: true });
  const model = decodeStaticModel(fs.readFileSync(opts.base), opts.base);
  const { dim } = model.header;
  const base = new Float32Array(model.rows.length);
  for (let i = 0; i < base.length; i++) base[i] = model.scales[Math.floor(i / dim)]! * model.rows[i]!;
  write(out, 'base.f32', base);
  const tokenizer = new StaticTokenizer(model.vocab);

  const texts = new Texts();
  const passageTexts: number[][] = [];
  const passageOf = (p: Passage) => {
    passageTexts.push([...(p.title ? [texts.id(p.title)] : []), ...p.sentences.map((s) => texts.id(s))]);
    return passageTexts.length - 1;
  };

  const sources = await readPairSources();
  const exQuery: number[] = [];
  const exSrc: number[] = [];
  const exPos: number[][] = [];
  const exNeg: number[] = [];
  const summary: Record<string, unknown>[] = [];
  sources.forEach((src, s) => {
    const t = Date.now();
    const negs = mine(src);
    const first = passageTexts.length;
    for (const p of src.passages) passageOf(p);
    src.examples.forEach((e, i) => {
      exQuery.push(texts.id(e.query));
      exSrc.push(s);
      exPos.push(e.positives.map((p) => first + p));
      const n = negs[i]!;
      for (let k = 0; k < NEGATIVES; k++) exNeg.push(k < n.length ? first + n[k]! : -1);
    });
    const withNeg = negs.filter((n) => n.length).length;
    log(
      `${src.name}: ${src.examples.length} queries, ${src.passages.length} passages, hard negatives for ${withNeg} (${((Date.now() - t) / 1000).toFixed(1)} s)`,
    );
    summary.push({
      name: src.name,
      origin: src.origin,
      licence: src.licence,
      queries: src.examples.length,
      passages: src.passages.length,
      passageRange: [first, passageTexts.length],
    });
  });

  const evals: Record<string, unknown>[] = [];
  for (const ev of [scifactDev(), climateDev()]) {
    const first = passageTexts.length;
    for (const p of ev.passages) passageOf(p);
    write(out, `eval_${ev.name}_query.i32`, Int32Array.from(ev.queries.map((q) => texts.id(q))));
    write(out, `eval_${ev.name}_pas.i32`, Int32Array.from(ev.passages.map((_, i) => first + i)));
    write(out, `eval_${ev.name}_doc.i32`, Int32Array.from(ev.passageDoc));
    evals.push({ name: ev.name, queries: ev.queries.length, docs: ev.docs.length, passages: ev.passages.length, qrels: ev.qrels });
    log(`dev set ${ev.name}: ${ev.queries.length} queries, ${ev.docs.length} documents, ${ev.passages.length} passages`);
  }

  const tok = csr(texts.list.map((t) => tokenizer.encode(t)));
  write(out, 'text_off.i64', tok.off);
  write(out, 'text_tok.i32', tok.flat);
  const pas = csr(passageTexts);
  write(out, 'pas_off.i64', pas.off);
  write(out, 'pas_txt.i32', pas.flat);
  write(out, 'ex_query.i32', Int32Array.from(exQuery));
  write(out, 'ex_src.i32', Int32Array.from(exSrc));
  const pos = csr(exPos);
  write(out, 'ex_pos_off.i64', pos.off);
  write(out, 'ex_pos.i32', pos.flat);
  write(out, 'ex_neg.i32', Int32Array.from(exNeg));
  const manifest = {
    vocab: model.vocab.length,
    dim,
    texts: texts.list.length,
    tokens: tok.flat.length,
    passages: passageTexts.length,
    examples: exQuery.length,
    negatives: NEGATIVES,
    sources: summary,
    evals,
  };
  fs.writeFileSync(path.join(out, 'manifest.json'), JSON.stringify(manifest) + '\n');
  return manifest;
}
