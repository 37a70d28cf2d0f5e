/**
 * One detail of a sentence changed, by kind: a name for another of the same type from the same
 * article, a place for another place, an amount, an ordinal, a score, a year, month or weekday, the
 * direction (rose → fell, won → lost), the polarity, or the roles of two names. The details are found
 * by the verdict's own details stage (ranking/verdict/details), so the evaluation changes exactly what
 * the verdict claims to check. Used to make minimal pairs for training (training/stance/minimal-pairs.ts)
 * and the detail-swap evaluation (`quin eval details`). Pure and deterministic given the random source.
 */
import type { Lexicon } from '../../ranking/verdict/details/lexicon';
import type { Amount } from '../../ranking/verdict/details/amounts';
import { prepareClaim } from '../../ranking/verdict/details/compare';
import type { Detail } from '../../ranking/verdict/details/extract';
import { mentioned, type Name } from '../../ranking/verdict/details/names';
import { units } from '../../ranking/verdict/details/words';
import {
  addNegation,
  changeAmount,
  coreStatement,
  NEGATED,
  removeNegation,
  reverseDirection,
  supportRewrite,
  swapRoles,
  type Rand,
} from './rewrite';

export const SWAP_KINDS = ['name', 'place', 'number', 'ordinal', 'score', 'date', 'direction', 'negation', 'roles'] as const;
export type SwapKind = (typeof SWAP_KINDS)[number];

export interface Swap {
  text: string;
  kind: SwapKind;
  /** The words changed, before and after. */
  from: string;
  to: string;
}

/** Names to swap in, by type: the article's own first, then the corpus's places. */
export interface NamePool {
  person: string[];
  org: string[];
  place: string[];
  other: string[];
}

const pick = <T>(xs: readonly T[], rand: Rand): T => xs[Math.floor(rand() * xs.length)]!;
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
/** Outcome words and what the other result reads as ("beat X" → "lost to X"). */
const OUTCOME_SWAP: Record<string, string> = {
  beat: 'lost to',
  defeated: 'lost to',
  won: 'lost',
  win: 'lose',
  wins: 'loses',
  lost: 'won',
  lose: 'win',
  loses: 'wins',
  acquitted: 'convicted',
  convicted: 'acquitted',
  cleared: 'convicted',
  elected: 'defeated',
  approved: 'rejected',
  rejected: 'approved',
  backed: 'rejected',
  lifted: 'cut',
  hiked: 'cut',
  raised: 'cut',
  cut: 'raised',
  resigned: 'was reappointed',
};

const replaceAt = (s: string, start: number, end: number, by: string): string => s.slice(0, start) + by + s.slice(end);
const sameCase = (like: string, w: string) => (/^\p{Lu}/u.test(like) ? w[0]!.toUpperCase() + w.slice(1) : w);

function swapName(s: string, d: Detail, pool: NamePool, lex: Lexicon, rand: Rand): Swap | null {
  const n = d.name!;
  const type = d.kind === 'place' || n.type === 'place' ? 'place' : n.type;
  const sentenceUnits = units(s, lex);
  const options = pool[type].filter((p) => {
    const words = p.toLowerCase().split(/\s+/);
    // The same shape of name (a surname for a surname), not one the sentence already states.
    return (
      Math.abs(words.length - n.words.length) <= (type === 'person' ? 0 : 1) &&
      !mentioned({ words }, sentenceUnits) &&
      !words.some((w) => n.words.includes(w))
    );
  });
  if (!options.length) return null;
  const to = pick(options, rand);
  return { text: replaceAt(s, n.start, n.start + n.text.length, to), kind: d.kind === 'place' ? 'place' : 'name', from: n.text, to };
}

function swapOrdinal(s: string, a: Amount, rand: Rand): Swap | null {
  const v = a.value;
  const to = Math.max(1, v + pick(v === 1 ? [1, 2] : [-1, 1, 2], rand));
  if (to === v) return null;
  const word = /^\d/.test(a.text)
    ? `${to}${to % 10 === 1 && to !== 11 ? 'st' : to % 10 === 2 && to !== 12 ? 'nd' : to % 10 === 3 && to !== 13 ? 'rd' : 'th'}`
    : ORDINALS[to - 1];
  if (!word) return null;
  const by = sameCase(a.text, word);
  return { text: replaceAt(s, a.start, a.end, by), kind: 'ordinal', from: a.text, to: by };
}

function swapScore(s: string, a: Amount, rand: Rand): Swap | null {
  const m = /(\d+)(\s?[-–]\s?)(\d+)/.exec(a.text);
  if (!m) return null;
  const [x, y] = [Number(m[1]), Number(m[3])];
  const [nx, ny] = rand() < 0.5 ? [x + 1, y] : x > y + 1 ? [x - 1, y] : [x, y + 1];
  const by = `${nx}${m[2]}${ny}`;
  return { text: replaceAt(s, a.start, a.end, by), kind: 'score', from: a.text, to: by };
}

function swapDate(s: string, d: Detail, rand: Rand): Swap | null {
  if (d.amount) {
    const by = String(d.amount.value + pick([-3, -2, -1, 1, 2, 3], rand));
    return { text: replaceAt(s, d.start, d.end, by), kind: 'date', from: d.text, to: by };
  }
  const list = d.month ? MONTHS : WEEKDAYS;
  const at = (d.month ?? d.weekday)! - 1;
  const to = list[(at + 1 + Math.floor(rand() * (list.length - 1))) % list.length]!;
  const by = d.text.length <= 4 ? to.slice(0, 3) + (d.text.endsWith('.') ? '.' : '') : to;
  return { text: replaceAt(s, d.start, d.end, by), kind: 'date', from: d.text, to: by };
}

function swapDirection(s: string, d: Detail, rand: Rand): Swap | null {
  const w = d.text.toLowerCase();
  const outcome = OUTCOME_SWAP[w];
  if (outcome) return { text: replaceAt(s, d.start, d.end, sameCase(d.text, outcome)), kind: 'direction', from: d.text, to: outcome };
  // A direction word of the reviewed opposites (rose → fell), at that word only.
  const word = reverseDirection(d.text, rand);
  if (!word || word === d.text) return null;
  return { text: replaceAt(s, d.start, d.end, word), kind: 'direction', from: d.text, to: word };
}

/** Every one-detail change the sentence admits, at most one per kind. */
export function swapsOf(s: string, pool: NamePool, lex: Lexicon, rand: Rand): Swap[] {
  const { details } = prepareClaim(s, lex);
  const out: Swap[] = [];
  const add = (kind: SwapKind, make: () => Swap | null) => {
    if (out.some((x) => x.kind === kind)) return;
    const r = make();
    if (r && r.text !== s) out.push(r);
  };
  for (const d of [...details].sort(() => rand() - 0.5)) {
    if (d.kind === 'name' || d.kind === 'place') add(d.kind, () => swapName(s, d, pool, lex, rand));
    else if (d.kind === 'date') add('date', () => swapDate(s, d, rand));
    else if (d.kind === 'direction') add('direction', () => swapDirection(s, d, rand));
    else if (d.kind === 'number' && d.amount) {
      const a = d.amount;
      if (a.kind === 'ordinal') add('ordinal', () => swapOrdinal(s, a, rand));
      else if (a.kind === 'score') add('score', () => swapScore(s, a, rand));
      else if (a.kind !== 'multiple' && a.bound !== 'range')
        add('number', () => {
          const by = changeAmount(a as Parameters<typeof changeAmount>[0], rand);
          return { text: replaceAt(s, a.start, a.end, by), kind: 'number', from: a.text, to: by };
        });
    }
  }
  add('negation', () => {
    const t = NEGATED.test(s) ? removeNegation(s) : addNegation(s);
    return t ? { text: t, kind: 'negation', from: '', to: '' } : null;
  });
  add('roles', () => {
    const t = swapRoles(s);
    return t ? { text: t, kind: 'roles', from: '', to: '' } : null;
  });
  return out;
}

/** Names of an article by type (compromise's tags through the details stage), for swapping in. */
export function namePool(sentences: readonly string[], lex: Lexicon, places: readonly string[] = []): NamePool {
  const pool: NamePool = { person: [], org: [], place: [], other: [] };
  const seen = new Set<string>();
  for (const s of sentences)
    for (const n of prepareClaim(s, lex).names as Name[]) {
      if (seen.has(n.text) || n.text.length < 3) continue;
      seen.add(n.text);
      pool[n.slot === 'location' && n.type !== 'person' ? 'place' : n.type].push(n.text);
    }
  for (const p of places) if (!seen.has(p)) pool.place.push(p);
  return pool;
}

/** The claim a reader would write from a sentence: its core, often shortened or reworded; the core itself when no rewrite applies. */
export function claimFrom(sentence: string, rand: Rand): { text: string; rule: string } | null {
  const r = supportRewrite(sentence, rand);
  if (r) return r;
  const core = coreStatement(sentence);
  const n = core.split(/\s+/).length;
  return n >= 4 && n <= 30 ? { text: /[.!?]$/.test(core) ? core : `${core}.`, rule: 'core' } : null;
}
