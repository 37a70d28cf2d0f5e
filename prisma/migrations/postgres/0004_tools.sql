-- Journalists' and admins' tools (issue 11). Mirrors prisma/schema.prisma.
-- admin_sessions: the server-side list of live admin sessions, so that signing out revokes a cookie
-- (the signed cookie names its session id; a session whose row is gone is refused).
CREATE TABLE "admin_sessions" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "user" TEXT NOT NULL,
  "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expires_at" TIMESTAMP(3) NOT NULL,
  "user_agent" TEXT
);
CREATE INDEX "admin_sessions_user_idx" ON "admin_sessions"("user");
CREATE INDEX "admin_sessions_expires_at_idx" ON "admin_sessions"("expires_at");

-- claim_reviews: published fact-checks (schema.org ClaimReview JSON-LD) found on crawled or imported pages.
CREATE TABLE "claim_reviews" (
  "id" SERIAL NOT NULL PRIMARY KEY,
  "article_id" INTEGER,
  "review_url" TEXT NOT NULL,
  "claim" TEXT NOT NULL,
  "claim_hash" TEXT NOT NULL,
  "rating" TEXT,
  "rating_value" DOUBLE PRECISION,
  "best_rating" DOUBLE PRECISION,
  "worst_rating" DOUBLE PRECISION,
  "reviewer" TEXT,
  "reviewer_url" TEXT,
  "claimant" TEXT,
  "appearance_url" TEXT,
  "claim_date" TIMESTAMP(3),
  "reviewed_at" TIMESTAMP(3),
  "language" TEXT,
  "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "claim_reviews_article_id_fkey" FOREIGN KEY ("article_id") REFERENCES "articles" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "claim_reviews_review_url_claim_hash_key" ON "claim_reviews"("review_url", "claim_hash");
CREATE INDEX "claim_reviews_article_id_idx" ON "claim_reviews"("article_id");

-- follows / follow_entries: a followed search (its Atom feed) and the coverage it has reported, each
-- entry with the verdict's state when the entry first appeared.
CREATE TABLE "follows" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "params" TEXT NOT NULL,
  "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "polled_at" TIMESTAMP(3) NOT NULL
);
CREATE INDEX "follows_polled_at_idx" ON "follows"("polled_at");

CREATE TABLE "follow_entries" (
  "id" SERIAL NOT NULL PRIMARY KEY,
  "follow_id" TEXT NOT NULL,
  "article_id" INTEGER NOT NULL,
  "title" TEXT NOT NULL,
  "url" TEXT NOT NULL,
  "source" TEXT NOT NULL,
  "published_at" TIMESTAMP(3),
  "text" TEXT NOT NULL,
  "first_seen_at" TIMESTAMP(3) NOT NULL,
  "verdict_status" TEXT NOT NULL,
  "verdict_label" TEXT,
  "verdict_confidence" DOUBLE PRECISION,
  CONSTRAINT "follow_entries_follow_id_fkey" FOREIGN KEY ("follow_id") REFERENCES "follows" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "follow_entries_follow_id_article_id_key" ON "follow_entries"("follow_id", "article_id");
CREATE INDEX "follow_entries_follow_id_first_seen_at_idx" ON "follow_entries"("follow_id", "first_seen_at");

-- The folder a feed is filed under in the admin's feed list (OPML outlines; "News / World").
ALTER TABLE "feeds" ADD COLUMN "category" TEXT;
