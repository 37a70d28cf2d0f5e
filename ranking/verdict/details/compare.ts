/**
 * The one way the verdict compares a claim with an evidence text: the word alignment (align.ts), the
 * claim's details (extract.ts) and what the text says of each (check.ts), how much of the claim it is
 * about, and the numbers the decision reads (DETAIL_FEATURES). The reasons shown are written from
 * the same comparison (reasons.ts). A claim is prepared once and compared with every sentence.
 */
import { align, covered, isTitleCase, units, type Alignment } from './words';
import { HEDGES } from './cues';
import { roleSwap } from './roles';
import type { Lexicon } from './lexicon';
import { checkDetails, evidenceView, type DetailCheck } from './checks';
import { claimDetails, type Detail } from './extract';
import { namesIn, type Name } from './names';

export const DETAIL_FEATURES = [
  'topic',
  'predicate',
  'cov',
  'cov_exact',
  'n_details',
  'confirmed',
  'all_confirmed',
  'unmentioned',
  'contra_name',
  'contra_place',
  'contra_number',
  'contra_date',
  'contra_direction',
  'contra_negation',
  'contra_roles',
  'other_number',
  'hedge_claim',
  'hedge_evidence',
  'len_evidence',
] as const;
export type DetailFeature = (typeof DETAIL_FEATURES)[number];

export interface PreparedClaim {
  text: string;
  details: Detail[];
  names: Name[];
  hedged: boolean;
}

export interface Comparison {
  claim: PreparedClaim;
  alignment: Alignment;
  checks: DetailCheck[];
  /** Share of the claim the text is about (see check.ts). */
  topic: number;
  values: Record<DetailFeature, number>;
}

const PASSIVE = /\b(was|were|been|being|is|are)\s+\w+(ed|en)\s+by\b/i;

export function prepareClaim(text: string, lex: Lexicon): PreparedClaim {
  const us = units(text, lex);
  return { text, details: claimDetails(text, us, lex), names: namesIn(text, us, lex), hedged: us.some((u) => HEDGES.has(u.lower)) };
}

const CONTRA: Record<DetailCheck['kind'], DetailFeature> = {
  name: 'contra_name',
  place: 'contra_place',
  number: 'contra_number',
  date: 'contra_date',
  direction: 'contra_direction',
  negation: 'contra_negation',
  roles: 'contra_roles',
};

function valuesOf(
  claim: PreparedClaim,
  a: Alignment,
  checks: readonly DetailCheck[],
  topic: number,
  predicate: number,
  hedgeEvidence: boolean,
) {
  const total = a.links.reduce((s, l) => s + l.idf, 0) || 1;
  const cov = covered(a);
  // The claim's own details (not what the evidence adds against it: roles, an added negation).
  const own = checks.filter((c) => c.kind !== 'roles' && !(c.kind === 'negation' && !c.claim));
  const n = own.length;
  const confirmed = own.filter((c) => c.status === 'confirmed').length;
  const values = Object.fromEntries(DETAIL_FEATURES.map((f) => [f, 0])) as Record<DetailFeature, number>;
  Object.assign(values, {
    topic,
    predicate,
    cov: cov.reduce((s, l) => s + l.idf, 0) / total,
    cov_exact: cov.filter((l) => l.relation === 'exact' || l.relation === 'lemma').reduce((s, l) => s + l.idf, 0) / total,
    n_details: Math.min(n, 6) / 6,
    confirmed: n ? confirmed / n : 0,
    all_confirmed: n > 0 && confirmed === n ? 1 : 0,
    unmentioned: n ? own.filter((c) => c.status === 'unmentioned').length / n : 0,
    other_number: checks.some((c) => c.other) ? 1 : 0,
    hedge_claim: claim.hedged ? 1 : 0,
    hedge_evidence: hedgeEvidence ? 1 : 0,
    len_evidence: Math.min(a.evidence.length, 80) / 80,
  });
  for (const c of checks) if (c.status === 'contradicted') values[CONTRA[c.kind]] = 1;
  return values;
}

/** The claim against one evidence text (a sentence, with its title and the sentence before where it refers back). */
export function compare(claim: PreparedClaim, evidence: string, lex: Lexicon): Comparison {
  const a = align(claim.text, evidence, lex);
  const ev = evidenceView(evidence, a.evidence, lex, claim.names);
  // Passives ("Y was beaten by X") and headlines in Title Case give names in no reliable order.
  const swapped = isTitleCase(a.claim) || PASSIVE.test(claim.text) || PASSIVE.test(evidence) ? null : roleSwap(a);
  // Two parties the other way round; a place or a competition is no party ("Lazio … in the Uefa Cup").
  // The claim's first word is a party when the sentence writes it as a name ("Sprint has agreed to buy
  // T-Mobile" / "… to buy Sprint"): the claim alone could not tell "Sprint" from a word.
  const party = (u: { start: number; index: number; cap: boolean }) =>
    claim.details.some((d) => d.kind === 'name' && d.name!.slot !== 'other' && u.start >= d.start && u.start < d.end) ||
    (u.index === 0 && u.cap && !claim.details.some((d) => u.start >= d.start && u.start < d.end));
  const roles =
    swapped && party(swapped[0].claim) && party(swapped[1].claim) ? `${swapped[1].evidence!.text} … ${swapped[0].evidence!.text}` : null;
  const { checks, topic, predicate, hedgeEvidence } = checkDetails(claim.details, a, ev, claim.names, roles);
  return { claim, alignment: a, checks, topic, values: valuesOf(claim, a, checks, topic, predicate, hedgeEvidence) };
}
