/**
 * A claim's verdict from its parts' (a compound claim is as true as its weakest part): any part
 * refuted → REFUTED; every part supported → SUPPORTED; else MIXED when a part is mixed, else NOT
 * ENOUGH EVIDENCE (some parts supported, the rest not settled: the claim as a whole is not settled).
 * The summary counts three outcomes: supported, refuted, not settled. Pure.
 */
import type { StanceEvidence, VerdictLabel } from '../../ranking/types';
import type { Outcome, PartResult } from '../schema';

export function combineLabels(labels: readonly VerdictLabel[]): VerdictLabel {
  if (labels.includes('REFUTED')) return 'REFUTED';
  if (labels.length && labels.every((l) => l === 'SUPPORTED')) return 'SUPPORTED';
  if (labels.includes('MIXED')) return 'MIXED';
  return 'NOT_ENOUGH_EVIDENCE';
}

export function outcomeOf(label: VerdictLabel): Outcome {
  return label === 'SUPPORTED' ? 'supported' : label === 'REFUTED' ? 'refuted' : 'not_settled';
}

/** The evidence that decides a claim: the first refuted part's, else (all supported) the first part's. */
export function decidingEvidence(label: VerdictLabel, parts: readonly PartResult[]): StanceEvidence | null {
  if (label === 'REFUTED') return parts.find((p) => p.label === 'REFUTED')?.decidedBy ?? null;
  if (label === 'SUPPORTED') return parts[0]?.decidedBy ?? null;
  return null;
}
