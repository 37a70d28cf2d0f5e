/**
 * The amounts a claim can get wrong, beyond the quantities of quantities.ts: scores and tallies
 * ("3-0", "71-27"), ordinals and ranks ("third", "21st", "fourth-largest"), multiples ("four times",
 * "twice") and ranges ("between 100 and 120"). Each comes with the words around it, so that two
 * amounts are compared only when they count the same thing. Pure.
 */
import { agrees, comparable, quantities, wordsValue, type Quantity } from './quantities';

export type AmountKind = Quantity['kind'] | 'score' | 'ordinal' | 'multiple';

export interface Amount {
  kind: AmountKind;
  value: number;
  /** A score's second number; a range's upper end. */
  value2?: number;
  /** A change ("up by 20p") rather than a level ("to £5.05"): "by" before it. */
  change?: boolean;
  bound?: Quantity['bound'] | 'range';
  unit?: string;
  start: number;
  end: number;
  text: string;
}

const ORDINAL_WORDS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  twentieth: 20,
};
/** Multiples said in one word; other numbers in words are read by quantities.ts wordsValue. */
const ONE_WORD_MULTIPLE: Record<string, number> = { twice: 2, double: 2, triple: 3, treble: 3 };
/** A number in digits or in words ("three", "twenty"), else NaN. */
const numberOf = (w: string) => ONE_WORD_MULTIPLE[w.toLowerCase()] ?? (/^\d/.test(w) ? Number(w) : (wordsValue(w) ?? NaN));

// "3-0", "2–1", "71-27 vote"; not "2004-05" (a season) nor a date "12-03-2005".
// Not a range of an amount ("15-18 dlrs", "$5-6bn", "10-15%").
const SCORE =
  /(?<![\w.\-–/$£€])(\d{1,3})\s?[-–]\s?(\d{1,3})(?![\w.\-–/]|\s?(?:%|per|pct|dlrs|dollars|pounds|euros|mln|bln|million|billion|years?|months?|days?|hours?|minutes?|cents?|p\b))/g;
/** Superlatives, each a rank on a scale and which end of it: "the largest" is first on size, "the smallest" first the other way. */
const SUPERLATIVE: Record<string, string> = {
  biggest: 'size+',
  largest: 'size+',
  greatest: 'size+',
  smallest: 'size-',
  highest: 'height+',
  lowest: 'height-',
  best: 'quality+',
  worst: 'quality-',
  fastest: 'speed+',
  slowest: 'speed-',
  oldest: 'age+',
  youngest: 'age-',
  richest: 'wealth+',
  poorest: 'wealth-',
  busiest: 'busy+',
};
const SUPERLATIVES = Object.keys(SUPERLATIVE).join('|');
// "third", "21st", "fourth-largest", "second largest"; "second" is a unit of time after "a"/"one" (handled below).
const ORDINAL = new RegExp(`\\b(${Object.keys(ORDINAL_WORDS).join('|')}|\\d{1,3}(?:st|nd|rd|th))(?:[\\s-]+(${SUPERLATIVES}))?\\b`, 'gi');
const PLAIN_SUPERLATIVE = new RegExp(`\\b(${SUPERLATIVES})\\b`, 'gi');
const MULTIPLE = /\b(?:(\d+(?:\.\d+)?|two|three|four|five|six|seven|eight|nine|ten)\s+times|(twice|double|triple|treble))\b/gi;
const RANGE = /\bbetween\s+(\S+(?:\s\S+)?)\s+and\s+(\S+(?:\s\S+)?)/gi;

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

function scores(text: string): Amount[] {
  const out: Amount[] = [];
  for (const m of text.matchAll(SCORE)) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    // "2004-05": a season or a span of years, not a score.
    if (a >= 1900 || (m[1]!.length === 4 && m[2]!.length === 2)) continue;
    out.push({ kind: 'score', value: Math.max(a, b), value2: Math.min(a, b), start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return out;
}

function ordinals(text: string): Amount[] {
  const out: Amount[] = [];
  for (const m of text.matchAll(ORDINAL)) {
    const w = m[1]!.toLowerCase();
    // "a second" / "one second" / "seconds": time; "second-hand", "secondly": not a rank.
    if (w === 'second' && /\b(?:a|one|per|every)\s+$/i.test(text.slice(Math.max(0, m.index - 8), m.index))) continue;
    const value = ORDINAL_WORDS[w] ?? Number(w.replace(/\D/g, ''));
    const scale = m[2] ? SUPERLATIVE[m[2].toLowerCase()] : undefined;
    out.push({ kind: 'ordinal', value, ...(scale ? { unit: scale } : {}), start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  // "the largest" on its own is first on its scale.
  for (const m of text.matchAll(PLAIN_SUPERLATIVE))
    if (!out.some((o) => o.start <= m.index && m.index < o.end))
      out.push({
        kind: 'ordinal',
        value: 1,
        unit: SUPERLATIVE[m[1]!.toLowerCase()],
        start: m.index,
        end: m.index + m[0].length,
        text: m[0],
      });
  return out;
}

// "one in four", "two in five": a share.
const ONE_IN =
  /\b(one|two|three|four|five|six|seven|eight|nine|\d+)\s+(?:in(?:\s+every)?|out of)\s+(two|three|four|five|six|seven|eight|nine|ten|\d+)\b/gi;

function shares(text: string): Amount[] {
  const out: Amount[] = [];
  for (const m of text.matchAll(ONE_IN)) {
    const [a, b] = [m[1]!, m[2]!].map(numberOf);
    if (a! > 0 && b! > a!) out.push({ kind: 'percent', value: (a! / b!) * 100, start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return out;
}

// "a three-second memory", "a 10-year deal": a measure written as one word.
const HYPHEN_MEASURE =
  /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|\d+(?:\.\d+)?)-(second|minute|hour|day|week|month|year)s?\b/gi;

function hyphenMeasures(text: string): Amount[] {
  return [...text.matchAll(HYPHEN_MEASURE)].flatMap((m) => {
    const value = numberOf(m[1]!);
    return Number.isFinite(value)
      ? [{ kind: 'measure' as const, value, unit: m[2]!.toLowerCase(), start: m.index, end: m.index + m[0].length, text: m[0] }]
      : [];
  });
}

function multiples(text: string): Amount[] {
  const out: Amount[] = [];
  for (const m of text.matchAll(MULTIPLE)) {
    const w = (m[1] ?? m[2])!.toLowerCase();
    const value = numberOf(w);
    if (Number.isFinite(value)) out.push({ kind: 'multiple', value, start: m.index, end: m.index + m[0].length, text: m[0] });
  }
  return out;
}

// "2004-05", "1999/2000": a season or a span of years, read as its first year.
const SEASON = /\b((?:19|20)\d{2})\s?[-–/]\s?(\d{2}|(?:19|20)\d{2})\b/g;

function seasons(text: string): Amount[] {
  return [...text.matchAll(SEASON)].map((m) => ({
    kind: 'year' as const,
    value: Number(m[1]),
    start: m.index,
    end: m.index + m[0].length,
    text: m[0],
  }));
}

// "20p", "50p": pence.
const PENCE = /(?<![\w.])(\d+(?:\.\d+)?)p\b/g;

function pence(text: string): Amount[] {
  return [...text.matchAll(PENCE)].map((m) => ({
    kind: 'money' as const,
    unit: '£',
    value: Number(m[1]) / 100,
    start: m.index,
    end: m.index + m[0].length,
    text: m[0],
  }));
}

const BY = /\bby\s+(?:about|around|roughly|some|nearly|almost|just|only)?\s*$/i;

/** Every amount of a text in reading order (scores, multiples, ranges, ordinals, then quantities not inside them), a change marked. */
export function amountsIn(text: string): Amount[] {
  return allAmounts(text).map((a) => (BY.test(text.slice(Math.max(0, a.start - 24), a.start)) ? { ...a, change: true } : a));
}

function allAmounts(text: string): Amount[] {
  // "21st" before the quantities read its digits as a count.
  const special = [
    ...seasons(text),
    ...pence(text),
    ...shares(text),
    ...hyphenMeasures(text),
    ...scores(text),
    ...multiples(text),
    ...ordinals(text).filter((o) => /^\d/.test(o.text)),
  ];
  const qs = quantities(text);
  const out: Amount[] = [...special];
  for (const m of text.matchAll(RANGE)) {
    const inside = qs.filter((q) => q.start >= m.index && q.end <= m.index + m[0].length);
    if (inside.length === 2 && comparable(inside[0]!, inside[1]!) && !special.some((s) => overlaps(s, inside[0]!))) {
      const [lo, hi] = inside as [Quantity, Quantity];
      out.push({
        ...lo,
        bound: 'range',
        value: lo.value,
        value2: hi.value,
        end: hi.end,
        text: text.slice(m.index, hi.end),
        start: m.index,
      });
    }
  }
  for (const q of qs) if (!out.some((o) => overlaps(o, q))) out.push(q);
  for (const o of ordinals(text)) if (!out.some((x) => overlaps(x, o))) out.push(o);
  return out.sort((a, b) => a.start - b.start);
}

/** Can the two amounts be compared (the same kind of amount, the same unit where both name one)? */
export function comparableAmounts(a: Amount, b: Amount): boolean {
  const special = (k: AmountKind) => k === 'score' || k === 'ordinal' || k === 'multiple';
  // Ranks on two scales do not compare ("the largest" / "the oldest"); either end of one scale does.
  if (a.kind === 'ordinal' && b.kind === 'ordinal' && a.unit && b.unit) return a.unit.slice(0, -1) === b.unit.slice(0, -1);
  if (special(a.kind) || special(b.kind)) return a.kind === b.kind;
  return comparable(a as Quantity, b as Quantity);
}

/** Does the evidence's amount bear the claim's out (a score either way round, a value inside a range or bound)? */
export function agreesAmount(claim: Amount, evidence: Amount): boolean {
  if (!comparableAmounts(claim, evidence)) return false;
  if (claim.kind === 'score') return claim.value === evidence.value && claim.value2 === evidence.value2;
  if (claim.kind === 'ordinal') return claim.value === evidence.value && (!claim.unit || !evidence.unit || claim.unit === evidence.unit);
  if (claim.kind === 'multiple') return claim.value === evidence.value;
  if (claim.bound === 'range') {
    const slack = Math.abs(claim.value2!) * 0.03;
    const hi = evidence.bound === 'range' ? evidence.value2! : evidence.value;
    return evidence.value >= claim.value - slack && hi <= claim.value2! + slack;
  }
  if (evidence.bound === 'range') return claim.value >= evidence.value && claim.value <= evidence.value2!;
  return agrees(claim as Quantity, evidence as Quantity);
}
