/**
 * Aligns a claim to one evidence sentence (MacCartney & Manning's natural-logic alignment, simplified):
 * each content word of the claim (WordNet collocations such as "central bank" count as one word) is
 * matched to the evidence word it relates to best — the same word, a lemma, a derivation, a synonym,
 * a more specific word, the same direction — or marked as contradicted (an antonym), more specific than
 * the evidence, or missing. Numbers are compared as quantities (quantities.ts), not as words.
 */
import { COMPARATIVE_LEVELS, directionOf, HEDGES, LEVELS, NEGATIONS, NEGATIVE_VERBS, UNIVERSALS } from './cues';
import { EQUIVALENT, type Lexicon, type Relation } from './lexicon';
import { agrees, comparable, quantities, type Quantity } from './quantities';
import { tokenize, type Token } from './tokens';

export interface Unit {
  text: string;
  lower: string;
  lemmas: string[];
  start: number;
  end: number;
  /** Index of its first token. */
  index: number;
  stop: boolean;
  cap: boolean;
  digit: boolean;
}

export interface Link {
  claim: Unit;
  /** The evidence word it relates to, null when none does. */
  evidence: Unit | null;
  relation: Relation | null;
  idf: number;
}

export interface QuantityLink {
  claim: Quantity;
  /** 'same': the evidence states that amount; 'different': it states another amount of the same kind; 'absent': no comparable amount. */
  status: 'same' | 'different' | 'absent';
  evidence: Quantity | null;
}

export interface Alignment {
  claimText: string;
  evidenceText: string;
  claim: Unit[];
  evidence: Unit[];
  /** One link per content unit of the claim (numbers excluded). */
  links: Link[];
  quantities: QuantityLink[];
}

// An opposite beats WordNet's weaker relations: "missed" must meet "reaching", not "adults" through
// a rare noun sense of "miss". Words of the same direction still come first ("rose" ~ "increased"
// where the sentence also says "fell" about something else).
const RANK: Record<Relation, number> = { exact: 0, lemma: 1, derived: 2, synonym: 3, direction: 4, antonym: 5, hypernym: 6, hyponym: 7 };

const PARTICLES = new Set(['up', 'down', 'out', 'off', 'in', 'on', 'over', 'away', 'back', 'through']);

/** Tokens with WordNet collocations (2–3 words, longest first) merged into single units. */
export function units(text: string, lex: Lexicon): Unit[] {
  const toks = tokenize(text);
  const out: Unit[] = [];
  for (let i = 0; i < toks.length;) {
    let n = 1;
    for (const len of [3, 2]) {
      const span = toks.slice(i, i + len);
      // Not "drop in" (to visit) out of "a drop in profits": a phrase ending in a function word is no unit.
      if (span.length === len && !span.some((t) => t.digit) && !span.at(-1)!.stop && phraseLemmas(span).some((p) => lex.isCollocation(p))) {
        n = len;
        break;
      }
    }
    out.push(merge(toks.slice(i, i + n), i, text));
    i += n;
  }
  return out;
}

/**
 * "interest rates" → ["interest rates", "interest rate"]; "voted down" → […, "vote down"]: the phrase
 * with each lemma of its last word, and of its first word for two-word phrases (phrasal verbs).
 */
function phraseLemmas(toks: readonly Token[]): string[] {
  const middle = toks.slice(1, -1).map((t) => t.lower);
  const firsts = toks.length === 2 ? toks[0]!.lemmas : [toks[0]!.lower];
  const out = new Set<string>();
  for (const f of firsts) for (const l of toks.at(-1)!.lemmas) out.add([f, ...middle, l].join(' '));
  out.delete([toks[0]!.lower, ...middle, toks.at(-1)!.lower].join(' '));
  return [[toks[0]!.lower, ...middle, toks.at(-1)!.lower].join(' '), ...out];
}

function merge(toks: Token[], index: number, text: string): Unit {
  const first = toks[0]!;
  if (toks.length === 1)
    return {
      text: first.text,
      lower: first.lower,
      lemmas: first.lemmas,
      start: first.start,
      end: first.end,
      index,
      stop: first.stop,
      cap: first.cap,
      digit: first.digit,
    };
  const last = toks.at(-1)!;
  // The head word too: "net profit" says "profit", and opposes "loss"; not a particle ("put up" says no "up").
  const lemmas = [...new Set([...phraseLemmas(toks), ...(PARTICLES.has(last.lower) ? [] : last.lemmas)])];
  return {
    text: text.slice(first.start, last.end),
    lower: lemmas[0]!,
    lemmas,
    start: first.start,
    end: last.end,
    index,
    stop: false,
    cap: toks.some((t) => t.cap),
    digit: false,
  };
}

/** A negation, hedge or universal quantifier. */
export function isCue(u: Pick<Unit, 'lower'>): boolean {
  return NEGATIONS.has(u.lower) || NEGATIVE_VERBS.has(u.lower) || HEDGES.has(u.lower) || UNIVERSALS.has(u.lower) || u.lower.endsWith("n't");
}

function inside(u: Unit, qs: readonly Quantity[]): boolean {
  return qs.some((q) => u.start >= q.start && u.end <= q.end);
}

// A direction word ("gained", "cut") agrees only with a word of the same direction or form: WordNet's
// senses would match "gained" with "profits" (gain = profit) and hide the "lost" beside it.
const WEAK: ReadonlySet<Relation> = new Set(['synonym', 'hypernym', 'hyponym']);
const BY_CONTEXT: ReadonlySet<Relation> = new Set(['exact', 'lemma', 'derived', 'direction', 'antonym']);

function bestLink(claim: readonly Unit[], ci: number, evidence: readonly Unit[], lex: Lexicon): Pick<Link, 'evidence' | 'relation'> {
  const c = claim[ci]!;
  let best: Pick<Link, 'evidence' | 'relation'> = { evidence: null, relation: null };
  let bestShared = 0;
  const sign = directionOf(c.lemmas);
  const directional = sign !== undefined;
  // What the claim's direction word is about: its neighbours (only direction words are compared by them).
  const near = directional ? new Set(contextOf(claim, ci, ci, NEAR)) : null;
  // A claim's movement ("fell"), not its level ("low"): "unemployment is low" / "is high" still disagree.
  const moves = directional && !LEVELS.has(c.lower) && !COMPARATIVE_LEVELS.has(c.lower);
  for (const [i, e] of evidence.entries()) {
    if (e.stop) continue;
    let r = lex.relate(c.lemmas, e.lemmas);
    // WordNet may call two words of one direction synonyms ("diminished", "decline"): that is a direction.
    if (r && directional && WEAK.has(r)) r = sign === directionOf(e.lemmas) ? 'direction' : null;
    // A level ("four-month highs", "the higher prices") may agree with a movement but never contradicts it.
    if (r === 'antonym' && moves && isLevel(evidence, i)) r = null;
    if (!r) continue;
    // Of the words of either direction (the claim's own included), the one about what the claim's word is
    // about comes first: "soaring fuel costs" meets "high fuel prices", not "a 40% drop in profits";
    // "oil prices fell" meets "oil prices rose", not "as the dollar fell".
    const shared = near && BY_CONTEXT.has(r) ? [...new Set(contextOf(evidence, i, i, NEAR))].filter((l) => near.has(l)).length : 0;
    const byContext = best.relation !== null && BY_CONTEXT.has(r) && BY_CONTEXT.has(best.relation) && shared !== bestShared;
    if (best.relation === null || (byContext ? shared > bestShared : RANK[r] < RANK[best.relation])) {
      best = { evidence: e, relation: r };
      bestShared = shared;
    }
    if (r === 'exact' && !directional) break;
  }
  return best;
}

/** Words either side of a direction word that say what it is about. */
const NEAR = 3;

const DETERMINERS = new Set('the a an its their his her our your this these those much even far'.split(' '));

/** Does the evidence word at i name a level ("four-month highs", "the higher prices") rather than a movement? */
function isLevel(evidence: readonly Unit[], i: number): boolean {
  const e = evidence[i]!;
  if (LEVELS.has(e.lower)) return true;
  const next = evidence[i + 1];
  return (
    COMPARATIVE_LEVELS.has(e.lower) &&
    DETERMINERS.has(evidence[i - 1]?.lower ?? '') &&
    next !== undefined &&
    !next.stop &&
    /^\p{L}/u.test(next.text)
  );
}

/** Content lemmas of the units within `span` of index i (the detail's own units excluded). */
export function contextOf(units: readonly Unit[], from: number, to: number, span: number): string[] {
  const out: string[] = [];
  for (let k = Math.max(0, from - span); k <= Math.min(units.length - 1, to + span); k++) {
    const u = units[k]!;
    if (k >= from && k <= to) continue;
    if (!u.stop && !u.digit && /\p{L}/u.test(u.text)) out.push(...u.lemmas);
  }
  return out;
}

function linkQuantities(claim: readonly Quantity[], evidence: readonly Quantity[]): QuantityLink[] {
  return claim.map((q) => {
    const same = evidence.find((e) => agrees(q, e));
    if (same) return { claim: q, status: 'same', evidence: same };
    const other = evidence.filter((e) => comparable(q, e));
    if (!other.length) return { claim: q, status: 'absent', evidence: null };
    // The closest amount of the same kind is the one a reader compares with.
    const near = other.reduce((a, b) => (Math.abs(b.value - q.value) < Math.abs(a.value - q.value) ? b : a));
    return { claim: q, status: 'different', evidence: near };
  });
}

/**
 * A capitalised first word is a name when WordNet does not know it as a word ("Dementieva won…") or
 * the other text writes it capitalised mid-sentence ("Google made…" / "…said Google").
 */
function markInitialName(us: Unit[], other: readonly Unit[], lex: Lexicon): void {
  const first = us[0];
  if (!first || first.cap || first.stop || !/^\p{Lu}/u.test(first.text)) return;
  if (!lex.known(first.lower) || other.some((o) => o.cap && o.lower === first.lower)) us[0] = { ...first, cap: true };
}

/** A headline in Title Case ("Seattle Passes New Tax On Big Companies"): capitals say nothing about names. */
export function isTitleCase(us: readonly Unit[]): boolean {
  const upper = (u: Unit) => /^\p{Lu}/u.test(u.text);
  // The tell: a capitalised function word mid-text ("… Confirmed As CIA Director With Aid Of …").
  if (us.some((u, i) => i > 0 && u.stop && u.text.length > 1 && upper(u))) return true;
  const words = us.filter((u) => !u.stop && /^\p{L}/u.test(u.text));
  return words.length >= 5 && words.every(upper);
}

/** In a Title Case text only words WordNet does not know are taken for names. */
function namesInTitleCase(us: Unit[], lex: Lexicon): void {
  if (!isTitleCase(us)) return;
  us.forEach((u, i) => {
    if (u.cap || i === 0)
      us[i] = {
        ...u,
        cap: /^\p{Lu}/u.test(u.text) && !u.stop && !u.lower.includes(' ') && !lex.known(u.lower) && !lex.known(u.lemmas.at(-1)!),
      };
  });
}

export function align(claimText: string, evidenceText: string, lex: Lexicon): Alignment {
  const claim = units(claimText, lex);
  const evidence = units(evidenceText, lex);
  namesInTitleCase(claim, lex);
  namesInTitleCase(evidence, lex);
  markInitialName(claim, evidence, lex);
  markInitialName(evidence, claim, lex);
  const cq = quantities(claimText);
  const eq = quantities(evidenceText);
  const links: Link[] = [];
  for (const [ci, c] of claim.entries()) {
    // Negations, hedges and quantifiers are read as cues (features.ts), not as words to find.
    if (c.stop || inside(c, cq) || isCue(c)) continue;
    links.push({ claim: c, ...bestLink(claim, ci, evidence, lex), idf: lex.idf(c.lower) });
  }
  return { claimText, evidenceText, claim, evidence, links, quantities: linkQuantities(cq, eq) };
}

/** Links whose evidence word says what the claim's word says. */
export function covered(a: Alignment): Link[] {
  return a.links.filter((l) => l.relation !== null && EQUIVALENT.has(l.relation));
}
