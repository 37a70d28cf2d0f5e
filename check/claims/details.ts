/**
 * The checkable details of a sentence: names, numbers, dates and places — what a reader could look up
 * and find confirmed or contradicted. A sentence with none states nothing the coverage can settle
 * ("It was a sharp contrast."). Pure.
 */
import { has, isName, type Token } from './tokens';

export type DetailKind = 'name' | 'number' | 'date' | 'place';

export interface Detail {
  kind: DetailKind;
  text: string;
}

const YEAR = /^(1[89]\d\d|20\d\d)s?$/;
const DIGITS = /\d/;
// Sentence openers compromise sometimes tags as names when capitalised at the start.
const NOT_NAMES = new Set(['i', 'but', 'and', 'however', 'meanwhile', 'also', 'the', 'a', 'an', 'it', 'this', 'that', 'mr', 'mrs', 'ms']);

/** Days named without a number that still date a statement. */
const DAY_WORDS = new Set(['today', 'yesterday', 'tomorrow', 'tonight']);

function kindOf(t: Token): DetailKind | null {
  // A month, a weekday, a year or a dated word; "quarter", "full-year" and "minutes" date nothing by themselves.
  if (has(t, 'Month') || has(t, 'WeekDay') || YEAR.test(t.normal) || DAY_WORDS.has(t.normal)) return 'date';
  // compromise reads "a" and "an" as the value one; they count nothing.
  if ((has(t, 'Value') && !/^(?:a|an)$/.test(t.normal)) || has(t, 'Percent') || has(t, 'Money') || DIGITS.test(t.text)) return 'number';
  if (has(t, 'Place')) return 'place';
  if (isName(t) && !NOT_NAMES.has(t.normal)) return 'name';
  return null;
}

/** The details, each run of same-kind words once ("Croke Park", "150,000", "March 2005"). */
export function detailsOf(tokens: readonly Token[]): Detail[] {
  const out: Detail[] = [];
  let current: { kind: DetailKind; words: string[] } | null = null;
  tokens.forEach((t, i) => {
    const kind = kindOf(t);
    if (kind && current?.kind === kind && !/[,;]/.test(tokens[i - 1]!.post)) current.words.push(t.text);
    else {
      if (current) out.push({ kind: current.kind, text: current.words.join(' ') });
      current = kind ? { kind, words: [t.text] } : null;
    }
  });
  if (current) out.push({ kind: (current as { kind: DetailKind }).kind, text: (current as { words: string[] }).words.join(' ') });
  return out;
}

export function hasNumberOrDate(details: readonly Detail[]): boolean {
  return details.some((d) => d.kind === 'number' || d.kind === 'date');
}
