/**
 * A small, fixed SciFact subset for CI (the full corpus takes ~30 min to embed with USE-lite on a
 * cold cache): the first N claims of a split by id, every document they cite, and M distractor
 * documents chosen by a fixed hash order. Deterministic: the same files give the same subset on any
 * machine.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadScifactClaims, readJsonl, selectQueries, type EvalQuery } from './datasets';
import type { Split } from './splits';

export interface SubsetSpec {
  claims: number;
  distractors: number;
  split: Split | 'all';
}

export interface Subset {
  corpusFile: string;
  queries: EvalQuery[];
  documents: number;
}

const byNumericId = (a: EvalQuery, b: EvalQuery) => Number(a.id) - Number(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function scifactSubset(claimsFile: string, corpusFile: string, spec: SubsetSpec, outDir: string): Subset {
  const queries = selectQueries(loadScifactClaims(claimsFile), spec.split).sort(byNumericId).slice(0, spec.claims);
  const wanted = new Set(queries.flatMap((q) => [...q.relevant]));
  const lines = readJsonl(corpusFile).map(({ value }) => value as { doc_id: number | string });
  const rank = (id: string) => crypto.createHash('sha256').update(`quin-subset:${id}`).digest('hex');
  const distractors = lines
    .map((d) => String(d.doc_id))
    .filter((id) => !wanted.has(id))
    .sort((a, b) => (rank(a) < rank(b) ? -1 : 1))
    .slice(0, spec.distractors);
  const keep = new Set([...wanted, ...distractors]);
  const docs = lines.filter((d) => keep.has(String(d.doc_id)));
  const body = docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
  const hash = crypto.createHash('sha256').update(body).digest('hex').slice(0, 12);
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `scifact-subset-${hash}.jsonl`);
  if (!fs.existsSync(file)) fs.writeFileSync(file, body);
  return { corpusFile: file, queries, documents: docs.length };
}
