/** Stores a page's published fact-checks with its article, inside the article's transaction. */
import type { Tx } from '../../lib/db/retry';
import type { ClaimReviewData } from '../extract/claim-review';

export type { ClaimReviewData };

/** Upserts by (review URL, claim): a page crawled again updates its ratings instead of adding copies. */
export async function saveClaimReviews(
  tx: Pick<Tx, 'claimReview'>,
  articleId: number,
  reviews: ClaimReviewData[] | undefined,
): Promise<void> {
  for (const r of reviews ?? []) {
    const data = { ...r, articleId };
    await tx.claimReview.upsert({
      where: { reviewUrl_claimHash: { reviewUrl: r.reviewUrl, claimHash: r.claimHash } },
      create: data,
      update: data,
    });
  }
}
