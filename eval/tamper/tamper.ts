/**
 * Tampered articles: real BBC articles held out from every training set (eval/news/heldout.ts), a
 * share of their check-worthy sentences changed in one detail each by the shared one-detail swap
 * (eval/swap: a name, a place, an amount, an ordinal, a score, a date, the direction, the polarity,
 * the roles), the rest left as written. The article keeps its paragraphs; the changed sentence
 * replaces the original where it stands. Pure and deterministic for a seed.
 */
import { extractClaims } from '../../check';
import { sharedLexicon } from '../../ranking/verdict';
import type { Rand } from '../swap/rewrite';
import { namePool, swapsOf, type Swap, type SwapKind } from '../swap/swap';

export interface SourceArticle {
  doc: string;
  title: string;
  text: string;
}

export interface TamperedSentence {
  original: string;
  changed: string;
  kind: SwapKind;
  from: string;
  to: string;
}

export interface TamperedArticle extends SourceArticle {
  /** The article as checked: the changed sentences in place of the originals. */
  tampered: string;
  changes: TamperedSentence[];
  /** The check-worthy sentences left as written. */
  unchanged: string[];
}

/** Share of an article's check-worthy sentences changed (about one in three, at least one). */
export const TAMPER_SHARE = 1 / 3;

/** The swap of the kind the run has least of so far (every kind gets its turn). */
function leastUsed(swaps: readonly Swap[], counts: Map<SwapKind, number>): Swap {
  return swaps.reduce((best, s) => ((counts.get(s.kind) ?? 0) < (counts.get(best.kind) ?? 0) ? s : best));
}

export function tamperArticle(a: SourceArticle, rand: Rand, counts: Map<SwapKind, number>): TamperedArticle | null {
  const worthy = extractClaims({ title: a.title, text: a.text }).claims.map((c) => c.text);
  const lex = sharedLexicon();
  const pool = namePool(worthy, lex);
  const order = worthy.map((s, i) => ({ s, r: rand(), i })).sort((x, y) => x.r - y.r);
  const want = Math.max(1, Math.round(worthy.length * TAMPER_SHARE));
  const changes: TamperedSentence[] = [];
  for (const { s } of order) {
    if (changes.length >= want) break;
    const swaps = swapsOf(s, pool, lex, rand).filter((w) => w.text !== s);
    if (!swaps.length) continue;
    const swap = leastUsed(swaps, counts);
    counts.set(swap.kind, (counts.get(swap.kind) ?? 0) + 1);
    changes.push({ original: s, changed: swap.text, kind: swap.kind, from: swap.from, to: swap.to });
  }
  if (!changes.length) return null;
  let tampered = a.text;
  for (const c of changes) tampered = tampered.replace(c.original, c.changed);
  const changedSet = new Set(changes.map((c) => c.original));
  return { ...a, tampered, changes, unchanged: worthy.filter((s) => !changedSet.has(s)) };
}
