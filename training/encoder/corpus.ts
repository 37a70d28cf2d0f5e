/**
 * The static encoder's training text: every sentence and title of the shared corpora, read by the
 * crawler's own import readers and sentence splitter (the texts the product embeds), plus the
 * Climate-FEVER evidence sentences. Claims are never read (they are the evaluation's queries).
 */
import fs from 'node:fs';
import path from 'node:path';
import { IMPORT_FORMATS, splitSentences } from '../../crawler';
import { sharedDataDir } from '../../lib/paths';

export interface CorpusPart {
  name: string;
  /** Distinct, trimmed sentences and titles, in the corpus's order. */
  texts: string[];
  /** texts.length after each document (documents in the corpus's order). */
  docEnds: number[];
}

const SOURCES: { name: string; format: string; path: string[] }[] = [
  { name: 'scifact', format: 'scifact', path: ['scifact', 'corpus.jsonl'] },
  { name: 'bbc', format: 'bbc', path: ['news', 'bbc'] },
  { name: 'huffpost', format: 'huffpost', path: ['news', 'huffpost', 'news_category_subset.json'] },
  { name: 'reuters', format: 'reuters', path: ['news', 'reuters21578'] },
];

function shared(...p: string[]): string {
  const f = path.join(sharedDataDir(), ...p);
  if (!fs.existsSync(f)) throw new Error(`shared data missing: ${f} (set QUIN_SHARED_DATA)`);
  return f;
}

function climateEvidence(): string[] {
  const file = shared('climate-fever', 'claims.jsonl');
  const out: string[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line) as { evidences?: { evidence?: string }[] };
    for (const e of c.evidences ?? []) if (e.evidence?.trim()) out.push(e.evidence.trim());
  }
  return out;
}

export async function readCorpora(): Promise<CorpusPart[]> {
  const parts: CorpusPart[] = [];
  for (const src of SOURCES) {
    const texts = new Set<string>();
    const docEnds: number[] = [];
    for await (const a of IMPORT_FORMATS[src.format]!(shared(...src.path))) {
      if (a.title.trim()) texts.add(a.title.trim());
      for (const s of a.sentences ?? splitSentences(a.text ?? '')) if (s.trim()) texts.add(s.trim());
      docEnds.push(texts.size);
    }
    parts.push({ name: src.name, texts: [...texts], docEnds });
  }
  const evidence = [...new Set(climateEvidence())];
  parts.push({ name: 'climate-fever-evidence', texts: evidence, docEnds: evidence.map((_, i) => i + 1) });
  return parts;
}
