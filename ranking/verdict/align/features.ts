/**
 * What a reader checks when a sentence is offered as evidence for a claim, as numbers (for the stance
 * classifier) and as cues (for the reasons shown beside the sentence). Pure: alignment in, features out.
 *
 * - coverage: idf-weighted share of the claim's content words that the sentence states (same word,
 *   lemma, derivation, synonym, same direction, or a more specific word); the exact-word share; the
 *   rarest claim word left unstated;
 * - opposites: an aligned antonym or opposite direction ("widened" / "narrowed");
 * - negation: a negation in one text and not the other, near the words they share;
 * - numbers: the claim's amounts stated, stated differently, or not stated; a different year;
 * - names: a name of the claim missing while the sentence names someone else; roles swapped
 *   ("X beat Y" / "Y beat X");
 * - hedges and universal quantifiers ("may", "plans to"; "all", "only").
 */
import { covered, isCue, type Alignment, type Link, type Unit } from './align';
import { isTitleCase } from './align';
import { HEDGES, NEGATIONS, NEGATIVE_VERBS, UNIVERSALS } from './cues';

export const STANCE_FEATURES = [
  'cov',
  'cov_exact',
  'uncov_max_idf',
  'n_uncov',
  'names_missing',
  'antonym',
  'antonym_x_cov',
  'neg_claim',
  'neg_evidence',
  'neg_mismatch',
  'neg_mismatch_x_cov',
  'num_same',
  'num_different',
  'num_absent',
  'year_different',
  'name_swap',
  'subject_swap',
  'subject_absent',
  'roles_swapped',
  'hedge_claim',
  'hedge_evidence',
  'universal_claim',
  'more_specific',
  'len_evidence',
  'len_claim',
] as const;
export type StanceFeature = (typeof STANCE_FEATURES)[number];

export type CueKind =
  'opposite' | 'negation' | 'number' | 'year' | 'name' | 'subject' | 'absent' | 'roles' | 'hedge' | 'missing' | 'same' | 'number_same';

const PRONOUNS = new Set('it its they their them he his him she her this these those'.split(' '));
/** Words that open a sentence with a phrase of time, place or manner rather than its subject. */
const OPENERS = new Set(
  'after before during following despite since while when although though once until as at by in on for from with without under over among across drawing directed born according last next every each some many most several'.split(
    ' ',
  ),
);

/** One thing a reader would point at, with the words on each side. */
export interface Cue {
  kind: CueKind;
  claim?: string;
  evidence?: string;
}

export interface StanceFeatures {
  values: Record<StanceFeature, number>;
  cues: Cue[];
}

const NEAR = 5;

function isNegation(u: Pick<Unit, 'lower'>): boolean {
  return NEGATIONS.has(u.lower) || NEGATIVE_VERBS.has(u.lower) || u.lower.endsWith("n't");
}

/** Negations of `units` within NEAR words before one of the `anchors` (the words both texts share). */
function negationsNear(units: readonly Unit[], anchors: readonly Unit[]): Unit[] {
  const at = anchors.map((a) => a.index);
  return units.filter((u) => isNegation(u) && at.some((i) => i >= u.index && i - u.index <= NEAR));
}

/** Words that make two names' order meaningless ("A and B", "A drew with B", "A met B"). */
const SYMMETRIC = new Set(
  'and or between versus vs v & met meet meets meeting drew draw draws tied tie ties merged merge merges merger talks talked played play faced face married marry'.split(
    ' ',
  ),
);
const CLAIM_SPAN = 10;
const EVIDENCE_SPAN = 15;

/** Is there a role-bearing word between positions i < j (a content word that is not a name), and nothing symmetric? */
function predicateBetween(units: readonly Unit[], i: number, j: number): boolean {
  const between = units.filter((u) => u.index > i && u.index < j);
  return between.some((u) => !u.stop && !u.cap && !u.digit) && !between.some((u) => SYMMETRIC.has(u.lower));
}

/**
 * "X beat Y" / "Y beat X", "Ladbroke bought … from Carlton" / "Carlton purchased … from Ladbroke": two
 * names of the claim that the sentence states too, each side with a predicate between them, in the
 * opposite order in the sentence. Not for passives ("Y was beaten by X", "Y confirmed with the aid
 * of X"), nor where an opposite word sits between them ("X sold to Y" = "Y bought from X").
 */
export function roleSwap(a: Alignment): [Link, Link] | null {
  const names = a.links.filter((l) => l.claim.cap && l.evidence && (l.relation === 'exact' || l.relation === 'lemma'));
  for (const x of names) {
    for (const y of names) {
      const [cx, cy, ex, ey] = [x.claim.index, y.claim.index, x.evidence!.index, y.evidence!.index];
      if (!(cx < cy && cy - cx <= CLAIM_SPAN && ey < ex && ex - ey <= EVIDENCE_SPAN)) continue;
      if (!predicateBetween(a.claim, cx, cy) || !predicateBetween(a.evidence, ey, ex)) continue;
      if (a.links.some((l) => l.relation === 'antonym' && l.claim.index > cx && l.claim.index < cy)) continue;
      // "… by X", "with the aid of X": the sentence's second name is an agent after all.
      if (/^(by|of)$/.test(a.evidence.find((u) => u.index === ex - 1)?.lower ?? '')) continue;
      return [x, y];
    }
  }
  return null;
}

const SUPERLATIVES = 'biggest|largest|greatest|highest|lowest|smallest|best|worst|fastest|oldest|youngest|richest|poorest|busiest';
const ORDINALS = 'second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\\d+(?:st|nd|rd|th)';
const PLAIN_SUPERLATIVE = new RegExp(`(?<!(?:${ORDINALS})[\\s-])\\b(${SUPERLATIVES})\\b`, 'i');
const RANKED_SUPERLATIVE = new RegExp(`\\b(?:${ORDINALS})[\\s-]+(?:${SUPERLATIVES})\\b`, 'i');

/** "the biggest" in the claim, "the fourth-largest" in the sentence: [claim words, sentence words], else null. */
export function rankedLower(claim: string, evidence: string): [string, string] | null {
  const c = PLAIN_SUPERLATIVE.exec(claim);
  if (!c || RANKED_SUPERLATIVE.test(claim)) return null;
  const e = RANKED_SUPERLATIVE.exec(evidence);
  return e ? [c[1]!, e[0]] : null;
}

const passive = (text: string) => /\b(was|were|been|being|is|are)\s+\w+(ed|en)\s+by\b/i.test(text);

export function stanceFeatures(a: Alignment): StanceFeatures {
  const cues: Cue[] = [];
  const total = a.links.reduce((s, l) => s + l.idf, 0) || 1;
  const cov = covered(a);
  const exact = cov.filter((l) => l.relation === 'exact' || l.relation === 'lemma');
  const uncovered = a.links.filter((l) => !cov.includes(l));
  const coverage = cov.reduce((s, l) => s + l.idf, 0) / total;

  const opposites = a.links.filter((l) => l.relation === 'antonym');
  for (const l of opposites) cues.push({ kind: 'opposite', claim: l.claim.text, evidence: l.evidence!.text });
  const ranked = rankedLower(a.claimText, a.evidenceText);
  if (ranked) cues.push({ kind: 'opposite', claim: ranked[0], evidence: ranked[1] });
  const nOpposites = opposites.length + (ranked ? 1 : 0);

  const anchorsC = cov.map((l) => l.claim).concat(opposites.map((l) => l.claim));
  const anchorsE = cov.map((l) => l.evidence!).concat(opposites.map((l) => l.evidence!));
  // Negations that bear on what both texts talk about: near a word they share, on each side.
  const negC = negationsNear(a.claim, anchorsC);
  const negE = negationsNear(a.evidence, anchorsE);
  const negMismatch = negC.length > 0 !== negE.length > 0 && anchorsC.length > 0;
  if (negMismatch) cues.push(negC.length ? { kind: 'negation', claim: negC[0]!.text } : { kind: 'negation', evidence: negE[0]!.text });

  const nums = a.quantities.filter((q) => q.claim.kind !== 'year');
  const years = a.quantities.filter((q) => q.claim.kind === 'year');
  for (const q of nums) {
    if (q.status === 'different') cues.push({ kind: 'number', claim: q.claim.text, evidence: q.evidence!.text });
    if (q.status === 'same') cues.push({ kind: 'number_same', claim: q.claim.text, evidence: q.evidence!.text });
  }
  for (const q of years) if (q.status === 'different') cues.push({ kind: 'year', claim: q.claim.text, evidence: q.evidence!.text });

  const namesMissing = uncovered.filter((l) => l.claim.cap);
  const claimWords = new Set(a.links.map((l) => l.evidence?.lower).filter(Boolean));
  const otherNames = a.evidence.filter((u) => u.cap && !claimWords.has(u.lower) && !isCue(u));
  // The subjects differ: the claim opens with a name (its leading capitalised words) of which the sentence states no
  // word, and the sentence opens with another ("Kinsey is up for…" / "Sideways is up for…", "The comedy Sideways
  // has…"); WordNet knows both words, so neither reads as a name by itself. Not when the sentence opens with a
  // phrase of time or place ("After…", "In 2016, …") or states part of the name ("Tim Roth" / "Timothy Simon Roth").
  const named = (u: Unit | undefined): u is Unit => !!u && /^\p{Lu}/u.test(u.text) && !u.stop && !u.digit && !isCue(u);
  const lead: Unit[] = [];
  for (const u of a.claim) {
    if (!named(u)) break;
    lead.push(u);
  }
  const leadMissing = lead.length > 0 && lead.every((u) => uncovered.some((l) => l.claim.index === u.index));
  const [w0, w1, w2] = a.evidence;
  const e0 =
    named(w0) && !OPENERS.has(w0.lower)
      ? w0
      : w0?.lower === 'the' && w1 && !w1.cap && named(w2)
        ? w2
        : w0?.lower === 'the' && named(w1)
          ? w1
          : undefined;
  const c0 = lead[0];
  const subjectSwap = leadMissing && !!c0 && !!e0 && !claimWords.has(e0.lower) && coverage >= 0.4;
  if (subjectSwap) cues.push({ kind: 'subject', claim: lead.map((u) => u.text).join(' '), evidence: e0!.text });
  // The claim's subject is not named at all, and no pronoun opens the sentence that could stand for it.
  const pronounFirst = a.evidence.slice(0, 3).some((u) => PRONOUNS.has(u.lower));
  const subjectAbsent = !subjectSwap && leadMissing && !!c0 && !pronounFirst;
  if (subjectAbsent) cues.push({ kind: 'absent', claim: lead.map((u) => u.text).join(' ') });
  const nameSwap = namesMissing.length > 0 && otherNames.length > 0 && coverage >= 0.4;
  if (nameSwap) cues.push({ kind: 'name', claim: namesMissing[0]!.claim.text, evidence: otherNames[0]!.text });
  const swapped = passive(a.claimText) || passive(a.evidenceText) || isTitleCase(a.claim) ? null : roleSwap(a);
  if (swapped) {
    const [x, y] = swapped as [Link, Link];
    cues.push({ kind: 'roles', claim: `${x.claim.text} … ${y.claim.text}`, evidence: `${y.evidence!.text} … ${x.evidence!.text}` });
  }

  const hedgeC = a.claim.some((u) => HEDGES.has(u.lower));
  const hedgeE = a.evidence.find((u) => HEDGES.has(u.lower));
  if (hedgeE && !hedgeC) cues.push({ kind: 'hedge', evidence: hedgeE.text });
  const missing = [...uncovered].filter((l) => l.relation !== 'antonym').sort((x, y) => y.idf - x.idf);
  if (missing.length) cues.push({ kind: 'missing', claim: missing[0]!.claim.text });
  if (cov.length) cues.push({ kind: 'same', claim: cov.map((l) => l.claim.text).join(', ') });

  const values: Record<StanceFeature, number> = {
    cov: coverage,
    cov_exact: exact.reduce((s, l) => s + l.idf, 0) / total,
    uncov_max_idf: Math.max(0, ...missing.map((l) => l.idf)) / 10,
    n_uncov: Math.min(missing.length, 6) / 6,
    names_missing: Math.min(namesMissing.length, 3) / 3,
    antonym: Math.min(nOpposites, 2) / 2,
    antonym_x_cov: (Math.min(nOpposites, 2) / 2) * coverage,
    neg_claim: a.claim.some(isNegation) ? 1 : 0,
    neg_evidence: negE.length ? 1 : 0,
    neg_mismatch: negMismatch ? 1 : 0,
    neg_mismatch_x_cov: negMismatch ? coverage : 0,
    num_same: Math.min(nums.filter((q) => q.status === 'same').length, 2) / 2,
    num_different: Math.min(nums.filter((q) => q.status === 'different').length, 2) / 2,
    num_absent: Math.min(nums.filter((q) => q.status === 'absent').length, 2) / 2,
    year_different: years.some((q) => q.status === 'different') ? 1 : 0,
    name_swap: nameSwap ? 1 : 0,
    subject_swap: subjectSwap ? 1 : 0,
    subject_absent: subjectAbsent ? 1 : 0,
    roles_swapped: swapped ? 1 : 0,
    hedge_claim: hedgeC ? 1 : 0,
    hedge_evidence: hedgeE ? 1 : 0,
    universal_claim: a.claim.some((u) => UNIVERSALS.has(u.lower)) ? 1 : 0,
    more_specific: Math.min(a.links.filter((l) => l.relation === 'hyponym').length, 2) / 2,
    len_evidence: Math.min(a.evidence.length, 80) / 80,
    len_claim: Math.min(a.claim.length, 40) / 40,
  };
  return { values, cues };
}
