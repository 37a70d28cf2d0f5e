/**
 * Readers of the shared labelled data used for training (../shared/data; never copied into the repo).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sharedDataDir } from '../lib/paths';

export interface SciDoc {
  id: number;
  title: string;
  sentences: string[];
}
export interface SciClaim {
  id: number;
  claim: string;
  label: 'SUPPORT' | 'CONTRADICT' | 'NEI';
  evidence: Record<string, { sentences: number[]; label: 'SUPPORT' | 'CONTRADICT' }[]>;
  cited: number[];
}
export interface ClimateClaim {
  id: string;
  claim: string;
  label: string;
  evidences: { id: string; label: 'SUPPORTS' | 'REFUTES' | 'NOT_ENOUGH_INFO'; article: string; text: string }[];
}

function jsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export function shared(...p: string[]): string {
  const f = path.join(sharedDataDir(), ...p);
  if (!fs.existsSync(f)) throw new Error(`shared data missing: ${f} (set QUIN_SHARED_DATA)`);
  return f;
}

export function sciCorpus(): SciDoc[] {
  return jsonl<{ doc_id: number; title: string; sentences: string[] }>(shared('scifact', 'corpus.jsonl')).map((d) => ({
    id: d.doc_id,
    title: d.title,
    sentences: d.sentences.map((s) => s.trim()).filter(Boolean),
  }));
}

export function sciClaims(): SciClaim[] {
  return jsonl<{ id: number; claim: string; label: SciClaim['label']; evidence: SciClaim['evidence']; cited_doc_ids: number[] }>(
    shared('scifact', 'claims_train.jsonl'),
  ).map((c) => ({
    id: c.id,
    claim: c.claim,
    label: c.label,
    evidence: c.evidence ?? {},
    cited: c.cited_doc_ids ?? [],
  }));
}

export function climateClaims(): ClimateClaim[] {
  return jsonl<{
    claim_id: string;
    claim: string;
    claim_label: string;
    evidences: { evidence_id: string; evidence_label: ClimateClaim['evidences'][0]['label']; article: string; evidence: string }[];
  }>(shared('climate-fever', 'claims.jsonl')).map((c) => ({
    id: c.claim_id,
    claim: c.claim,
    label: c.claim_label,
    evidences: c.evidences.map((e) => ({ id: e.evidence_id, label: e.evidence_label, article: e.article, text: e.evidence })),
  }));
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
export function splitSentences(text: string): string[] {
  return [...segmenter.segment(text)].map((s) => s.segment.trim()).filter((s) => s.length > 0);
}

/** BBC News articles (title = first line) as sentence lists, in a fixed order. */
export function bbcArticles(): { id: string; title: string; sentences: string[] }[] {
  const root = shared('news', 'bbc');
  const out: { id: string; title: string; sentences: string[] }[] = [];
  for (const topic of fs.readdirSync(root).sort()) {
    const dir = path.join(root, topic);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const f of fs.readdirSync(dir).sort()) {
      const lines = fs.readFileSync(path.join(dir, f), 'latin1').split('\n');
      const title = lines[0]!.trim();
      out.push({ id: `${topic}/${f}`, title, sentences: lines.slice(1).flatMap((l) => (l.trim() ? splitSentences(l) : [])) });
    }
  }
  return out;
}

export { mulberry32 as rng } from '../lib/random';

export function shuffle<T>(xs: T[], rand: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}
