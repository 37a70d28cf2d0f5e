/**
 * The contrastive training pairs of the static encoder (query → relevant passage), read from the
 * shared data (../shared/data; never copied into the repository). Each source has its own pool of
 * passages: the in-batch and BM25 hard negatives of a query come from its own source, which keeps
 * them hard (a claim about vaccines against other science, not against football results).
 *
 * A passage is embedded as the product embeds a snippet: its sentences (and its title, when it has
 * one) each embedded, then pooled with `mean-title` (indexer/vectors/pooling.ts). Passages whose
 * query is their own title (news title → lead) are pooled without the title.
 *
 * Evaluation claims never train: SciFact and Climate-FEVER claims are used only when
 * eval/splits.ts puts them in `train`, and not in its held-out part (trainPart: the fusion weight is
 * cross-validated on those); the dev split is what the model is checked on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { IMPORT_FORMATS, makeSnippets, splitSentences, DEFAULT_WINDOW } from '../../crawler';
import { splitOf, trainPart } from '../../eval/splits';
import { sharedDataDir } from '../../lib/paths';
import { csvRecords } from './csv';

export interface Passage {
  /** Unique within its source (deduplicates passages shared by several queries). */
  key: string;
  /** Pooled as one more sentence when present (mean-title); null = sentences only. */
  title: string | null;
  sentences: string[];
}

export interface PairExample {
  query: string;
  /** Indexes into the source's passages; one is drawn per epoch. */
  positives: number[];
  /** Passages known to be non-relevant for this query (e.g. Climate-FEVER's NOT_ENOUGH_INFO evidence), tried before BM25's. */
  negatives?: number[];
}

export interface PairSource {
  name: string;
  /** Where it comes from and under which terms (for the model card). */
  origin: string;
  licence: string;
  passages: Passage[];
  examples: PairExample[];
}

function shared(...p: string[]): string {
  const f = path.join(sharedDataDir(), ...p);
  if (!fs.existsSync(f)) throw new Error(`shared data missing: ${f} (set QUIN_SHARED_DATA)`);
  return f;
}

function jsonl(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Collects passages by key. */
class Pool {
  readonly passages: Passage[] = [];
  private readonly index = new Map<string, number>();
  add(p: Passage): number {
    let i = this.index.get(p.key);
    if (i === undefined) {
      i = this.passages.length;
      this.passages.push(p);
      this.index.set(p.key, i);
    }
    return i;
  }
  get(key: string): number | undefined {
    return this.index.get(key);
  }
}

/** The product's snippet windows of a document's sentences (5 sentences, stride 3). */
function windows(sentences: readonly string[]): { start: number; end: number; sentences: string[] }[] {
  return makeSnippets(sentences, DEFAULT_WINDOW).map((d) => ({
    start: d.sentenceStart,
    end: d.sentenceEnd,
    sentences: sentences.slice(d.sentenceStart, d.sentenceEnd),
  }));
}

interface SciDoc {
  id: string;
  title: string;
  sentences: string[];
}

function scifactCorpus(): SciDoc[] {
  return jsonl(shared('scifact', 'corpus.jsonl')).map((d) => ({
    id: String(d.doc_id),
    title: clean(String(d.title)),
    sentences: (d.sentences as string[]).map(clean).filter(Boolean),
  }));
}

/** SciFact train-split claims → the snippet windows of their cited abstracts that hold gold evidence (else the first window). */
export function scifactClaims(): PairSource {
  const pool = new Pool();
  const windowsOf = new Map<string, { i: number; start: number; end: number }[]>();
  for (const d of scifactCorpus()) {
    windowsOf.set(
      d.id,
      windows(d.sentences).map((w) => ({ i: pool.add({ key: `${d.id}:${w.start}`, title: d.title, sentences: w.sentences }), ...w })),
    );
  }
  const examples: PairExample[] = [];
  for (const c of jsonl(shared('scifact', 'claims_train.jsonl'))) {
    if (splitOf('scifact', c.id as number) !== 'train' || trainPart('scifact', c.id as number) !== 'fit') continue;
    const evidence = (c.evidence ?? {}) as Record<string, { sentences: number[] }[]>;
    const cited = new Set([...((c.cited_doc_ids as number[]) ?? []).map(String), ...Object.keys(evidence)]);
    const positives: number[] = [];
    for (const doc of cited) {
      const ws = windowsOf.get(doc) ?? [];
      const gold = new Set((evidence[doc] ?? []).flatMap((s) => s.sentences));
      const hit = ws.filter((w) => [...gold].some((s) => s >= w.start && s < w.end));
      positives.push(...(hit.length ? hit : ws.slice(0, 1)).map((w) => w.i));
    }
    if (positives.length) examples.push({ query: clean(String(c.claim)), positives });
  }
  return {
    name: 'scifact-claims',
    origin: 'SciFact claims_train.jsonl, the fit part of the train split (eval/splits.ts) → cited abstracts (corpus.jsonl)',
    licence: 'claims CC BY 4.0, abstracts ODC-By 1.0',
    passages: pool.passages,
    examples,
  };
}

/** SciFact abstracts: the title → each snippet window of its abstract (pooled without the title). No claims. */
export function scifactTitles(): PairSource {
  const pool = new Pool();
  const examples: PairExample[] = [];
  for (const d of scifactCorpus()) {
    if (!d.title) continue;
    const positives = windows(d.sentences).map((w) => pool.add({ key: `${d.id}:${w.start}`, title: null, sentences: w.sentences }));
    if (positives.length) examples.push({ query: d.title, positives });
  }
  return {
    name: 'scifact-titles',
    origin: 'SciFact corpus.jsonl: each abstract title → the windows of its abstract (no claims)',
    licence: 'ODC-By 1.0',
    passages: pool.passages,
    examples,
  };
}

/** Climate-FEVER train-split claims → their SUPPORTS/REFUTES evidence sentences; their NOT_ENOUGH_INFO evidence as negatives. */
export function climateFever(): PairSource {
  const pool = new Pool();
  const claims = jsonl(shared('climate-fever', 'claims.jsonl')) as {
    claim_id: string;
    claim: string;
    evidences: { evidence_id: string; evidence_label: string; article: string; evidence: string }[];
  }[];
  // Every evidence sentence of the file is a passage (as in the evaluation's corpus), dev claims' too: they are documents, not queries.
  const passage = (e: (typeof claims)[number]['evidences'][number]) =>
    pool.add({ key: e.evidence_id, title: clean(e.article), sentences: splitSentences(clean(e.evidence)) });
  for (const c of claims) for (const e of c.evidences) if (e.evidence.trim()) passage(e);
  const examples: PairExample[] = [];
  for (const c of claims) {
    if (splitOf('climate-fever', c.claim_id) !== 'train' || trainPart('climate-fever', c.claim_id) !== 'fit') continue;
    const ev = c.evidences.filter((e) => e.evidence.trim());
    const positives = ev.filter((e) => e.evidence_label === 'SUPPORTS' || e.evidence_label === 'REFUTES').map(passage);
    const negatives = ev.filter((e) => e.evidence_label === 'NOT_ENOUGH_INFO').map(passage);
    if (positives.length) examples.push({ query: clean(c.claim), positives, negatives });
  }
  return {
    name: 'climate-fever',
    origin: 'Climate-FEVER claims.jsonl (the shared half), the fit part of the train split (eval/splits.ts) → SUPPORTS/REFUTES evidence',
    licence: 'as published by its authors',
    passages: pool.passages,
    examples,
  };
}

/** FEVER evidence → claim pairs (COVID-Fact's RTE-Fever_processed_dev): the claim → its evidence, whatever the label (relevance, not stance). */
export function fever(): PairSource {
  const dir = ['nli', 'covidfact'];
  const read = (ext: string) => fs.readFileSync(shared(...dir, `RTE-Fever_processed_dev.${ext}`), 'utf8').split('\n');
  const evidence = read('raw.input0');
  const claims = read('raw.input1');
  const pool = new Pool();
  const examples: PairExample[] = [];
  claims.forEach((claim, i) => {
    const ev = clean(evidence[i] ?? '');
    if (!claim.trim() || !ev) return;
    examples.push({ query: clean(claim), positives: [pool.add({ key: ev, title: null, sentences: splitSentences(ev) })] });
  });
  return {
    name: 'fever',
    origin: 'FEVER evidence → claim pairs (asaakyan/covidfact@ceeb613 RTE-Fever_processed_dev), all labels',
    licence: 'FEVER: CC BY-SA 3.0 (Wikipedia); the repository states none',
    passages: pool.passages,
    examples,
  };
}

/** FNC-1 train stances (the whole original train set), agree and discuss: headline → the body's lead window. */
export function fnc1(): PairSource {
  const bodies = new Map(
    csvRecords(fs.readFileSync(shared('nli', 'fnc1', 'train_bodies.csv'), 'utf8')).map((r) => [r['Body ID']!, r.articleBody!]),
  );
  const pool = new Pool();
  const examples: PairExample[] = [];
  const seen = new Set<string>();
  for (const f of ['train_train_stances.csv', 'train_test_stances.csv']) {
    for (const r of csvRecords(fs.readFileSync(shared('nli', 'fnc1', 'ukp_split_9_1', f), 'utf8'))) {
      if (r.Stance !== 'agree' && r.Stance !== 'discuss') continue;
      const body = bodies.get(r['Body ID']!);
      const headline = clean(r.Headline ?? '');
      if (!body || !headline || seen.has(`${headline}\n${r['Body ID']}`)) continue;
      seen.add(`${headline}\n${r['Body ID']}`);
      const sentences = body
        .split(/\n+/)
        .flatMap((l) => (l.trim() ? splitSentences(clean(l)) : []))
        .slice(0, DEFAULT_WINDOW.size);
      if (!sentences.length) continue;
      examples.push({ query: headline, positives: [pool.add({ key: `body:${r['Body ID']}`, title: null, sentences })] });
    }
  }
  return {
    name: 'fnc1',
    origin: 'FNC-1 train stances (FakeNewsChallenge/fnc-1@29d473a via UKPLab 9:1 split, both parts), agree + discuss: headline → body lead',
    licence: 'none stated (built on Emergent, Ferreira & Vlachos 2016)',
    passages: pool.passages,
    examples,
  };
}

/** COVID-Fact: claim → its evidence sentences (supported and refuted claims alike). */
export function covidFact(): PairSource {
  const pool = new Pool();
  const examples: PairExample[] = [];
  for (const c of jsonl(shared('nli', 'covidfact', 'COVIDFACT_dataset.jsonl'))) {
    const ev = ((c.evidence as string[]) ?? []).map(clean).filter(Boolean).slice(0, DEFAULT_WINDOW.size);
    const claim = clean(String(c.claim ?? ''));
    if (!ev.length || !claim) continue;
    examples.push({ query: claim, positives: [pool.add({ key: ev.join('\n'), title: null, sentences: ev })] });
  }
  return {
    name: 'covidfact',
    origin: 'COVID-Fact COVIDFACT_dataset.jsonl (asaakyan/covidfact@ceeb613): claim → evidence sentences',
    licence: 'none stated',
    passages: pool.passages,
    examples,
  };
}

/** Perspectrum train claims → their perspectives (supporting and undermining alike). */
export function perspectrum(): PairSource {
  const split = JSON.parse(fs.readFileSync(shared('nli', 'perspectrum', 'dataset_split_v1.0.json'), 'utf8')) as Record<string, string>;
  const texts = new Map(
    (
      JSON.parse(fs.readFileSync(shared('nli', 'perspectrum', 'perspective_pool_v1.0.json'), 'utf8')) as { pId: number; text: string }[]
    ).map((p) => [p.pId, clean(p.text)]),
  );
  const claims = JSON.parse(fs.readFileSync(shared('nli', 'perspectrum', 'perspectrum_with_answers_v1.0.json'), 'utf8')) as {
    cId: number;
    text: string;
    perspectives: { pids: number[] }[];
  }[];
  const pool = new Pool();
  const examples: PairExample[] = [];
  for (const c of claims) {
    if (split[String(c.cId)] !== 'train') continue;
    const positives = c.perspectives
      .flatMap((p) => p.pids)
      .filter((id) => texts.get(id))
      .map((id) => pool.add({ key: String(id), title: null, sentences: [texts.get(id)!] }));
    if (positives.length) examples.push({ query: clean(c.text), positives });
  }
  return {
    name: 'perspectrum',
    origin: 'Perspectrum (CogComp/perspectrum@b42c27b), train split: claim → perspectives',
    licence: 'CC BY-SA 4.0',
    passages: pool.passages,
    examples,
  };
}

/** News: title → the lead window of the story (pooled without the title), read by the crawler's own import readers. */
async function newsLeads(name: string, format: string, rel: string[], origin: string, licence: string): Promise<PairSource> {
  const pool = new Pool();
  const examples: PairExample[] = [];
  const seen = new Set<string>();
  for await (const a of IMPORT_FORMATS[format]!(shared(...rel))) {
    const title = clean(a.title);
    let sentences = (a.sentences ?? splitSentences(a.text ?? '')).map(clean).filter(Boolean);
    if (sentences[0] && sentences[0].replace(/[.!?…]+$/, '') === title.replace(/[.!?…]+$/, '')) sentences = sentences.slice(1);
    sentences = sentences.slice(0, DEFAULT_WINDOW.size);
    if (!title || !sentences.length || seen.has(title)) continue;
    seen.add(title);
    examples.push({ query: title, positives: [pool.add({ key: a.canonicalUrl, title: null, sentences })] });
  }
  return { name, origin, licence, passages: pool.passages, examples };
}

export async function readPairSources(): Promise<PairSource[]> {
  return [
    scifactClaims(),
    scifactTitles(),
    climateFever(),
    fever(),
    fnc1(),
    covidFact(),
    perspectrum(),
    await newsLeads('bbc', 'bbc', ['news', 'bbc'], 'BBC News (2,225 stories): title → lead', 'rights owned by the BBC; research use'),
    await newsLeads(
      'huffpost',
      'huffpost',
      ['news', 'huffpost', 'news_category_subset.json'],
      'HuffPost subset: headline → short description',
      'as published',
    ),
    await newsLeads(
      'reuters',
      'reuters',
      ['news', 'reuters21578'],
      'Reuters-21578: title → lead',
      'free distribution for research purposes only',
    ),
  ];
}
