/**
 * Quantities in a sentence, normalised so that the same amount written two ways compares equal:
 * "half a billion" = "500 million" = "$500m"; "a fifth" = "20%" = "20 per cent"; "0.4%"; years apart
 * from counts. Pure; used to tell "the same number" from "a different number for the same quantity".
 */

export type QuantityKind = 'percent' | 'money' | 'count' | 'year' | 'measure';

export interface Quantity {
  value: number;
  kind: QuantityKind;
  /** "more than 70%" = over, "nearly half" = under, "about 5m" = about. */
  bound?: 'over' | 'under' | 'about';
  /** Currency symbol or word for money ('$', '£', '€', '¥'), unit for measures ('m', 'km', 'kg', …). */
  unit?: string;
  start: number;
  end: number;
  text: string;
}

const SCALE: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  m: 1e6,
  mn: 1e6,
  mln: 1e6,
  billion: 1e9,
  bn: 1e9,
  bln: 1e9,
  b: 1e9,
  trillion: 1e12,
  tn: 1e12,
  trn: 1e12,
};
// Reuters writes "dlrs", "stg" and "pct".
const CURRENCY_WORD: Record<string, string> = {
  dollar: '$',
  dollars: '$',
  dlr: '$',
  dlrs: '$',
  pound: '£',
  pounds: '£',
  sterling: '£',
  stg: '£',
  euro: '€',
  euros: '€',
  yen: '¥',
  yuan: '¥',
};
const MEASURE =
  /^(m|km|kg|g|mph|km\/h|metres?|meters?|kilometres?|kilometers?|miles?|tonnes?|tons?|feet|ft|seconds?|minutes?|hours?|days?|weeks?|months?|years?)$/i;
const ONES: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const FRACTION: Record<string, number> = {
  half: 50,
  halves: 50,
  third: 100 / 3,
  thirds: 100 / 3,
  quarter: 25,
  quarters: 25,
  fifth: 20,
  fifths: 20,
  tenth: 10,
  tenths: 10,
};

// Digits, optionally with currency before and scale/unit after: "$52m", "£1.2bn", "0.4%", "3,000", "100m".
// Not the digits of a name ("U2", "G8", "A380") nor of a longer number.
const DIGITS =
  /(?<![A-Za-z0-9.])(US\$|A\$|C\$|\$|£|€|¥)?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(trillion|billion|million|thousand|bn|bln|tn|trn|mn|mln|m|k|b)\b)?(?:\s?(%|per ?cent\b|pct\b|percentage points?\b|dollars?\b|dlrs?\b|pounds?\b|stg\b|sterling\b|euros?\b|yen\b|yuan\b|(?:km\/h|mph|km|kg|metres?|meters?|miles?|tonnes?|feet|ft|seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b))?/gi;
// Spelled-out amounts: "half a billion", "a fifth", "two thirds", "twenty-five million", "a dozen".
const WORDS =
  /\b(?:(half)\s+an?\s+(million|billion|trillion)|(an?|one|two|three)\s+(half|halves|third|thirds|quarter|quarters|fifth|fifths|tenth|tenths)\b|((?:(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|a|an|and)[\s-]+)*(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|dozen))(?:\s+(thousand|million|billion|trillion))?)(?:\s+(per ?cent|percent|dollars?|pounds?|euros?|years?|months?|weeks?|days?|hours?|minutes?|seconds?|miles?|metres?|meters?))?\b/gi;

function currencyOf(symbol: string | undefined, word: string | undefined): string | undefined {
  if (symbol) return symbol.endsWith('$') ? '$' : symbol;
  return word ? CURRENCY_WORD[word.toLowerCase()] : undefined;
}

/** Value of spelled-out cardinal words ("twenty-five", "a hundred", "two hundred and six"); null when not a number. */
export function wordsValue(phrase: string): number | null {
  let total = 0;
  let any = false;
  for (const w of phrase.toLowerCase().split(/[\s-]+/)) {
    if (w === 'and' || w === '') continue;
    if (w === 'a' || w === 'an') {
      total = total || 1;
      continue;
    }
    if (w in ONES) total += ONES[w]!;
    else if (w in TENS) total += TENS[w]!;
    else if (w === 'hundred') total = (total || 1) * 100;
    else if (w === 'dozen') total = (total || 1) * 12;
    else return null;
    any = true;
  }
  return any ? total : null;
}

function fromDigits(m: RegExpMatchArray): Quantity | null {
  const [text, cur, num, scaleWord, unitWord] = m;
  let value = Number(num!.replace(/,/g, ''));
  if (!Number.isFinite(value)) return null;
  const unit = unitWord?.toLowerCase().replace(/\s+/g, ' ');
  const currency = currencyOf(cur, unit);
  const scale = scaleWord?.toLowerCase();
  // "100m" without a currency is a distance, not a hundred million.
  if (scale && !currency && (scale === 'm' || scale === 'b' || scale === 'k')) {
    return { value, kind: 'measure', unit: scale, start: m.index!, end: m.index! + text.trimEnd().length, text: text.trim() };
  }
  if (scale) value *= SCALE[scale]!;
  const base = { start: m.index!, end: m.index! + text.trimEnd().length, text: text.trim() };
  if (unit && (unit === '%' || unit === 'pct' || unit.startsWith('per') || unit.startsWith('percentage')))
    return { ...base, value, kind: 'percent' };
  if (currency) return { ...base, value, kind: 'money', unit: currency };
  if (unit && MEASURE.test(unit)) return { ...base, value, kind: 'measure', unit: unit.replace(/s$/, '') };
  if (!scale && !num!.includes(',') && !num!.includes('.') && value >= 1900 && value <= 2099) return { ...base, value, kind: 'year' };
  return { ...base, value, kind: 'count' };
}

function fromWords(m: RegExpMatchArray): Quantity | null {
  const [text, half, halfScale, fracCount, fracWord, cardinal, scaleWord, unitWord] = m;
  const unit = unitWord?.toLowerCase();
  const base = { start: m.index!, end: m.index! + text.length, text };
  if (fracWord) {
    const n = fracCount!.toLowerCase() === 'a' || fracCount!.toLowerCase() === 'an' ? 1 : wordsValue(fracCount!)!;
    return { ...base, value: n * FRACTION[fracWord.toLowerCase()]!, kind: 'percent' };
  }
  let value: number;
  if (half) value = 0.5 * SCALE[halfScale!.toLowerCase()]!;
  else {
    const v = cardinal ? wordsValue(cardinal) : null;
    // A lone "a"/"an"/"one" is an article or a pronoun, not an amount; "one second" is.
    if (v === null || /^an?$/i.test(cardinal!.trim()) || (/^one$/i.test(cardinal!.trim()) && !unitWord)) return null;
    value = v * (scaleWord ? SCALE[scaleWord.toLowerCase()]! : 1);
  }
  if (unit && unit.startsWith('per')) return { ...base, value, kind: 'percent' };
  const currency = currencyOf(undefined, unit);
  if (currency) return { ...base, value, kind: 'money', unit: currency };
  if (unit && MEASURE.test(unit)) return { ...base, value, kind: 'measure', unit: unit.replace(/s$/, '') };
  return { ...base, value, kind: 'count' };
}

const OVER = /(?:more than|over|above|at least|exceeding|in excess of|upwards of|greater than)\s*$/i;
const UNDER = /(?:less than|under|below|fewer than|up to|at most|nearly|almost|just under|short of)\s*$/i;
const ABOUT = /(?:about|around|roughly|approximately|some|an estimated|close to|circa)\s*$/i;
// "a tenth of a percent" is 0.1%, not 10%.
const OF_A_PERCENT = /^\s+of an? (?:per ?cent(?:age point)?|percent(?:age point)?)\b/i;

function withContext(q: Quantity, text: string): Quantity {
  const before = text.slice(Math.max(0, q.start - 24), q.start);
  const bound = OVER.test(before) ? 'over' : UNDER.test(before) ? 'under' : ABOUT.test(before) ? 'about' : undefined;
  const ofA = q.kind === 'percent' && /[a-z]/i.test(q.text) ? OF_A_PERCENT.exec(text.slice(q.end)) : null;
  const out = ofA ? { ...q, value: q.value / 100, end: q.end + ofA[0].length, text: q.text + ofA[0] } : q;
  return bound ? { ...out, bound } : out;
}

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
const MONTH_BEFORE = new RegExp(`\\b${MONTH}\\s*$`, 'i');
const MONTH_AFTER = new RegExp(`^(?:st|nd|rd|th)?\\s*(?:of\\s+)?${MONTH}\\b`, 'i');

/** A day of the month ("Dec. 9", "9 December", "March 3rd"): a date, not an amount. */
export function isDayOfMonth(q: Pick<Quantity, 'start' | 'end' | 'kind' | 'value'>, text: string): boolean {
  if (q.kind !== 'count' || !Number.isInteger(q.value) || q.value < 1 || q.value > 31) return false;
  return MONTH_BEFORE.test(text.slice(Math.max(0, q.start - 12), q.start)) || MONTH_AFTER.test(text.slice(q.end, q.end + 16));
}

/** Quantities in reading order (digit forms win where both match); days of the month are not amounts. */
export function quantities(text: string): Quantity[] {
  const out: Quantity[] = [];
  for (const m of text.matchAll(DIGITS)) {
    const q = fromDigits(m);
    if (q && !isDayOfMonth(q, text)) out.push(q);
  }
  for (const m of text.matchAll(WORDS)) {
    const q = fromWords(m);
    if (q && !out.some((o) => o.start < q.end && q.start < o.end)) out.push(q);
  }
  return out.sort((a, b) => a.start - b.start).map((q) => withContext(q, text));
}

/** Can the two quantities be compared (same kind, and same currency or unit when both name one)? */
export function comparable(a: Quantity, b: Quantity): boolean {
  // "52 million" and "$52m": an amount whose currency one side leaves out.
  const money = (q: Quantity) => q.kind === 'money' || (q.kind === 'count' && q.value >= 1e3);
  if (a.kind !== b.kind) return money(a) && money(b);
  return !(a.unit && b.unit && a.unit !== b.unit);
}

/** The same amount, allowing the rounding news writing does ("52.3m" ≈ "52m", "a third" ≈ "33%"). */
export function sameAmount(a: Quantity, b: Quantity): boolean {
  if (!comparable(a, b)) return false;
  if (a.kind === 'year') return a.value === b.value;
  const big = Math.max(Math.abs(a.value), Math.abs(b.value));
  if (big === 0) return true;
  const tolerance = a.kind === 'percent' ? Math.max(0.5, big * 0.03) : big * 0.03;
  return Math.abs(a.value - b.value) <= tolerance;
}

/**
 * Does the evidence's amount bear the claim's out? The same amount, or one inside the claim's bound
 * ("over two thirds" by "more than 70 percent"; "nearly half" by "46.2%"; "about 5m" by "5.2m").
 */
export function agrees(claim: Quantity, evidence: Quantity): boolean {
  if (sameAmount(claim, evidence)) return true;
  if (!comparable(claim, evidence) || claim.kind === 'year') return false;
  const c = claim.value;
  const e = evidence.value;
  if (claim.bound === 'over') return e >= c * 0.97;
  if (claim.bound === 'under') return e <= c * 1.03 && e >= c * 0.75;
  if (claim.bound === 'about' || evidence.bound === 'about') return Math.abs(e - c) <= Math.max(Math.abs(c), Math.abs(e)) * 0.1;
  return false;
}
