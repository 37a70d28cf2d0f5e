/**
 * Evaluation datasets: the claims as queries with their relevance judgments, and the corpus each
 * is searched in. Parsing is strict (a malformed line names its file and line) and pure apart from
 * reading the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { createError } from '../lib/errors';
import { splitOf, type Split } from './splits';

export type DatasetName = 'scifact' | 'climate-fever';

export interface EvalQuery {
  id: string;
  text: string;
  split: Split;
  /** Relevant document ids (BEIR qrels). */
  relevant: Set<string>;
  /** Gold evidence sentence indexes per document; 'all' = any sentence of that document. */
  evidence: Map<string, Set<number> | 'all'>;
  /** Claim-level label where the dataset has one (SUPPORT / CONTRADICT / NEI for SciFact). */
  label: string | null;
}

export function readJsonl(file: string): { line: number; value: unknown }[] {
  if (!fs.existsSync(file)) throw createError('NOT_FOUND', `no such file: ${file}`);
  const out: { line: number; value: unknown }[] = [];
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const text = raw.trim();
      if (!text) return;
      try {
        out.push({ line: i + 1, value: JSON.parse(text) });
      } catch (e) {
        throw createError('INVALID_INPUT', `${file}:${i + 1}: not valid JSON (${(e as Error).message})`);
      }
    });
  return out;
}

function parseLines<T>(file: string, schema: z.ZodType<T>, what: string): T[] {
  return readJsonl(file).map(({ line, value }) => {
    const r = schema.safeParse(value);
    if (!r.success)
      throw createError(
        'INVALID_INPUT',
        `${file}:${line}: not a ${what} (${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`,
      );
    return r.data;
  });
}

// --- SciFact -----------------------------------------------------------------------------------

const ScifactClaim = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  claim: z.string(),
  cited_doc_ids: z.array(z.union([z.number().int(), z.string()])).default([]),
  evidence: z
    .record(z.string(), z.array(z.object({ sentences: z.array(z.number().int().min(0)), label: z.string().optional() })))
    .default({}),
  label: z.string().optional(),
});

export function loadScifactClaims(file: string): EvalQuery[] {
  return parseLines(file, ScifactClaim, 'SciFact claim').map((c) => {
    const evidence = new Map<string, Set<number> | 'all'>();
    for (const [doc, sets] of Object.entries(c.evidence)) evidence.set(doc, new Set(sets.flatMap((s) => s.sentences)));
    const relevant = new Set(c.cited_doc_ids.map(String));
    // Evidence documents are relevant too (in SciFact they are always cited).
    for (const doc of evidence.keys()) relevant.add(doc);
    return {
      id: String(c.id),
      text: c.claim,
      split: splitOf('scifact', c.id),
      relevant,
      evidence,
      label: c.label ?? derivedLabel(c.evidence),
    };
  });
}

function derivedLabel(evidence: Record<string, { label?: string }[]>): string {
  const labels = new Set(Object.values(evidence).flatMap((sets) => sets.map((s) => s.label)));
  if (labels.has('SUPPORT')) return 'SUPPORT';
  if (labels.has('CONTRADICT')) return 'CONTRADICT';
  return 'NEI';
}

// --- Climate-FEVER -----------------------------------------------------------------------------

const ClimateEvidence = z.object({
  evidence_id: z.string().min(1),
  evidence_label: z.string(),
  article: z.string().default(''),
  evidence: z.string(),
});
const ClimateClaim = z.object({
  claim_id: z.union([z.string().min(1), z.number()]),
  claim: z.string(),
  claim_label: z.string().optional(),
  evidences: z.array(ClimateEvidence),
});
type ClimateClaim = z.infer<typeof ClimateClaim>;

export const CLIMATE_RELEVANT = new Set(['SUPPORTS', 'REFUTES']);

export function loadClimateFever(file: string): { queries: EvalQuery[]; claims: ClimateClaim[] } {
  const claims = parseLines(file, ClimateClaim, 'Climate-FEVER claim');
  const queries = claims.map((c) => {
    const gold = c.evidences.filter((e) => CLIMATE_RELEVANT.has(e.evidence_label)).map((e) => e.evidence_id);
    return {
      id: String(c.claim_id),
      text: c.claim,
      split: splitOf('climate-fever', c.claim_id),
      relevant: new Set(gold),
      evidence: new Map(gold.map((id) => [id, 'all' as const])),
      label: c.claim_label ?? null,
    };
  });
  return { queries, claims };
}

/**
 * The Climate-FEVER corpus: every distinct evidence sentence of the file, one document each, written as
 * the generic JSON-lines import format (id = evidence_id, title = Wikipedia article).
 */
export function writeClimateCorpus(claims: readonly ClimateClaim[], file: string): number {
  const docs = new Map<string, { id: string; title: string; text: string; source: string }>();
  for (const c of claims) {
    for (const e of c.evidences) {
      if (!docs.has(e.evidence_id) && e.evidence.trim())
        docs.set(e.evidence_id, { id: e.evidence_id, title: e.article, text: e.evidence, source: 'Climate-FEVER' });
    }
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sorted = [...docs.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  fs.writeFileSync(file, sorted.map((d) => JSON.stringify(d)).join('\n') + '\n');
  return docs.size;
}

export function selectQueries(queries: readonly EvalQuery[], split: Split | 'all', limit?: number): EvalQuery[] {
  const chosen = queries.filter((q) => split === 'all' || q.split === split).filter((q) => q.relevant.size > 0);
  return limit === undefined ? chosen : chosen.slice(0, limit);
}
