/**
 * "Fact-checkers have rated this": the published fact-checks (claim_reviews) whose claim is the
 * query's claim. Candidates come by their words, or as a paraphrase by the sentence encoder's vectors
 * (only the best few candidates are embedded); with an NLI model, each is then kept only when it is
 * the same claim — same entities, numbers, direction and polarity, read both ways by the verdict's
 * model and alignment (ranking/verdict/same-claim.ts): a rating of "married at 57" is not shown for
 * "married at 67". The reviews' words are kept in memory and re-read when the table changes.
 */
import type { Models } from '../../lib/db/client';
import { analyzeQuery, contentWords, decideMatches, rankByWords, toInstant, type FactCheckMatch } from '../../ranking';
import { searchContext, services } from './services';

type Review = Models.ClaimReviewModel;

export interface FactCheck {
  claim: string;
  rating: string | null;
  ratingValue: number | null;
  bestRating: number | null;
  worstRating: number | null;
  reviewer: string | null;
  reviewerUrl: string | null;
  reviewUrl: string;
  claimant: string | null;
  appearanceUrl: string | null;
  reviewedAt: string | null;
  /** How the match was made: word coverage and sentence-vector cosine. */
  match: { score: number; words: number; dense: number | null };
}

const MAX_REVIEWS = 50_000;
const EMBEDDED = 8;
const SHOWN = 3;

interface Cache {
  key: string;
  reviews: Review[];
  words: Map<number, Set<string>>;
}
let cache: Cache | null = null;

async function reviewsNow(): Promise<Cache> {
  const { db } = await services();
  const agg = await db.claimReview.aggregate({ _max: { id: true }, _count: { _all: true } });
  const key = `${agg._count._all}:${agg._max.id ?? 0}`;
  if (cache?.key === key) return cache;
  const reviews = await db.claimReview.findMany({ orderBy: { id: 'desc' }, take: MAX_REVIEWS });
  cache = { key, reviews, words: new Map(reviews.map((r) => [r.id, contentWords(r.claim)])) };
  return cache;
}

async function denseScores(claim: string, texts: string[]): Promise<(number | null)[]> {
  try {
    const ctx = await searchContext();
    const vecs = await ctx.indexes.encoder.embed([claim, ...texts]);
    const q = vecs[0]!;
    return vecs.slice(1).map((v) => v.reduce((s, x, i) => s + x * q[i]!, 0));
  } catch {
    return texts.map(() => null); // no encoder yet: words alone decide
  }
}

function view(m: FactCheckMatch<Review>): FactCheck {
  const r = m.review;
  return {
    claim: r.claim,
    rating: r.rating,
    ratingValue: r.ratingValue,
    bestRating: r.bestRating,
    worstRating: r.worstRating,
    reviewer: r.reviewer,
    reviewerUrl: r.reviewerUrl,
    reviewUrl: r.reviewUrl,
    claimant: r.claimant,
    appearanceUrl: r.appearanceUrl,
    reviewedAt: r.reviewedAt?.toISOString() ?? null,
    match: { score: m.score, words: m.words, dense: m.dense },
  };
}

/**
 * The fact-checks that rated the query's claim (questions are matched on their statement too).
 * `asOf` (YYYY-MM-DD or an ISO time): only reviews published by then, as the search's "as of" does
 * with articles; a review without a date is left out under it.
 */
export async function factChecksFor(q: string, asOf?: string): Promise<FactCheck[]> {
  const { config } = await services();
  let claim: string;
  try {
    claim = analyzeQuery(q, { maxChars: config.maxQueryChars }).claim;
  } catch {
    return [];
  }
  const all = await reviewsNow();
  const until = toInstant(asOf, 'end');
  const reviews = until ? all.reviews.filter((r) => r.reviewedAt !== null && r.reviewedAt <= until) : all.reviews;
  const words = all.words;
  if (!reviews.length) return [];
  const ranked = rankByWords(claim, reviews, EMBEDDED, words);
  if (!ranked.length) return [];
  const dense = await denseScores(
    claim,
    ranked.map((r) => r.review.claim),
  );
  // One fact-check page may rate the same claim twice (two anchors): show each review URL once.
  const seen = new Set<string>();
  const candidates = decideMatches(ranked, dense).filter((m) => !seen.has(m.review.reviewUrl) && seen.add(m.review.reviewUrl));
  return (await sameClaimOnly(claim, candidates)).slice(0, SHOWN).map(view);
}

/** The candidates that are the reader's claim itself, when an NLI model can tell (else the word rule stands). */
async function sameClaimOnly(claim: string, candidates: FactCheckMatch<Review>[]): Promise<FactCheckMatch<Review>[]> {
  const verdict = (await searchContext().catch(() => null))?.verdict;
  if (!verdict?.sameClaim || !candidates.length) return candidates;
  const same = await Promise.all(candidates.map((m) => verdict.sameClaim!(claim, m.review.claim)));
  return candidates.filter((_, i) => same[i]!.same);
}
