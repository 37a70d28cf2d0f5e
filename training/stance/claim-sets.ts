/**
 * Claim-level sets whose evidence comes with the data (not from our search), in the shape of the
 * search dumps (claims-dump.ts) so that the verdict's decision is fitted on both: each evidence text is
 * a "result" of one sentence, in the order the data gives them, all equally relevant.
 *   Climate-FEVER  claim_label SUPPORTS / REFUTES / NOT_ENOUGH_INFO with its 5 evidence sentences
 *                  (DISPUTED claims are left out: the gold set has no label for "both");
 *   COVID-Fact     SUPPORTED / REFUTED claims with their evidence sentences;
 *   HealthVer      its pairs grouped by claim: REFUTED when some snippet refutes and none supports,
 *                  SUPPORTED the other way round, NOT_ENOUGH_EVIDENCE when all are neutral (claims
 *                  with snippets on both sides are left out).
 * Each claim keeps the split its pairs have in pairs.jsonl (build-pairs.ts), so that the pair model's
 * held-out claims are known.
 */
import fs from 'node:fs';
import path from 'node:path';
import { splitOf } from '../../eval/splits';
import { sharedDataDir } from '../../lib/paths';
import { climateClaims } from '../data';
import type { DumpedClaim } from './claims-dump';
import { covidfact, healthver } from './nli-sets';

type Label = DumpedClaim['label'];

/** The claims `claims-dump.ts <name>` wrote (our own search's results for each); none, said, when it has not run. */
export function dumpedClaims(name: string, ifMissing: string): DumpedClaim[] {
  const file = path.resolve('.cache/training/stance', `claims-${name}.jsonl`);
  if (!fs.existsSync(file)) {
    console.warn(`${file} missing (training/stance/claims-dump.ts ${name}): ${ifMissing}`);
    return [];
  }
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as DumpedClaim);
}

const asResults = (texts: readonly string[]): DumpedClaim['results'] =>
  texts.map((t, rank) => ({ rank, relevance: 1, doc: `${rank}`, title: '', sentences: [t], starts: [0] }));

export function* climateClaimSet(): Generator<DumpedClaim> {
  const map: Record<string, Label> = { SUPPORTS: 'SUPPORTED', REFUTES: 'REFUTED', NOT_ENOUGH_INFO: 'NOT_ENOUGH_EVIDENCE' };
  for (const c of climateClaims()) {
    const label = map[c.label];
    if (!label) continue;
    const split = splitOf('climate-fever', c.id);
    yield {
      dataset: 'climate-fever',
      id: `climate-fever:${c.id}`,
      label,
      claim: c.claim,
      kind: 'claim',
      split,
      results: asResults(c.evidences.map((e) => e.text)),
    };
  }
}

export function* covidClaimSet(): Generator<DumpedClaim> {
  // The RTE split of each claim (a claim's evidence pairs were split together).
  const splitOfClaim = new Map<string, string>();
  for (const p of covidfact()) splitOfClaim.set(p.claim.toLowerCase(), p.split);
  const file = path.join(sharedDataDir(), 'nli', 'covidfact', 'COVIDFACT_dataset.jsonl');
  let i = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line) as { claim: string; label: string; evidence: string[] };
    const split = splitOfClaim.get(c.claim.trim().toLowerCase());
    if (!split || !c.evidence?.length) continue;
    yield {
      dataset: 'covidfact',
      id: `covidfact:${i++}`,
      label: c.label === 'SUPPORTED' ? 'SUPPORTED' : 'REFUTED',
      claim: c.claim.trim(),
      kind: 'claim',
      split,
      results: asResults(c.evidence.slice(0, 8)),
    };
  }
}

export function* healthverClaimSet(): Generator<DumpedClaim> {
  const by = new Map<string, { split: string; items: { label: string; evidence: string }[] }>();
  for (const p of healthver()) {
    const g = by.get(p.claim) ?? by.set(p.claim, { split: p.split, items: [] }).get(p.claim)!;
    g.items.push({ label: p.label, evidence: p.evidence });
  }
  let i = 0;
  for (const [claim, g] of by) {
    const sup = g.items.some((x) => x.label === 'SUPPORTS');
    const ref = g.items.some((x) => x.label === 'REFUTES');
    if (sup && ref) continue;
    const label: Label = sup ? 'SUPPORTED' : ref ? 'REFUTED' : 'NOT_ENOUGH_EVIDENCE';
    yield {
      dataset: 'healthver',
      id: `healthver:${i++}`,
      label,
      claim,
      kind: 'claim',
      split: g.split,
      results: asResults(g.items.map((x) => x.evidence)),
    };
  }
}
