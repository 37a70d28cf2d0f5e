-- Ingest: feeds, articles, snippets, crawl events, feed items. Mirrors prisma/schema.prisma.
-- Timestamps are ISO-8601 text in UTC (the format the Prisma adapter writes), so that they sort as text.
CREATE TABLE "feeds" (
  "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  "url" TEXT NOT NULL,
  "title" TEXT,
  "site_url" TEXT,
  "status" TEXT NOT NULL DEFAULT 'active',
  "interval_minutes" INTEGER NOT NULL DEFAULT 60,
  "etag" TEXT,
  "last_modified" TEXT,
  "last_checked_at" DATETIME,
  "next_check_at" DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  "last_success_at" DATETIME,
  "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
  "last_error" TEXT,
  "last_error_code" TEXT,
  "last_error_at" DATETIME,
  "last_http_status" INTEGER,
  "hint_minutes" INTEGER,
  "lease_owner" TEXT,
  "lease_until" DATETIME,
  "items_seen" INTEGER NOT NULL DEFAULT 0,
  "items_new" INTEGER NOT NULL DEFAULT 0,
  "articles_extracted" INTEGER NOT NULL DEFAULT 0,
  "articles_failed" INTEGER NOT NULL DEFAULT 0,
  "snippets_made" INTEGER NOT NULL DEFAULT 0,
  "created_at" DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  "updated_at" DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE UNIQUE INDEX "feeds_url_key" ON "feeds"("url");
CREATE INDEX "feeds_status_next_check_at_idx" ON "feeds"("status", "next_check_at");

CREATE TABLE "articles" (
  "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  "canonical_url" TEXT NOT NULL,
  "original_url" TEXT NOT NULL,
  "feed_id" INTEGER,
  "external_id" TEXT,
  "title" TEXT NOT NULL,
  "author" TEXT,
  "source" TEXT NOT NULL,
  "language" TEXT,
  "published_at" DATETIME,
  "published_at_source" TEXT NOT NULL,
  "fetched_at" DATETIME NOT NULL,
  "content_hash" TEXT NOT NULL,
  "text_source" TEXT NOT NULL,
  "extraction_status" TEXT NOT NULL,
  "text" TEXT NOT NULL,
  "sentence_count" INTEGER NOT NULL,
  "created_at" DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  "updated_at" DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CONSTRAINT "articles_feed_id_fkey" FOREIGN KEY ("feed_id") REFERENCES "feeds" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "articles_canonical_url_key" ON "articles"("canonical_url");
CREATE INDEX "articles_feed_id_idx" ON "articles"("feed_id");
CREATE INDEX "articles_published_at_idx" ON "articles"("published_at");
CREATE INDEX "articles_source_idx" ON "articles"("source");
CREATE INDEX "articles_original_url_idx" ON "articles"("original_url");

CREATE TABLE "snippets" (
  "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  "article_id" INTEGER NOT NULL,
  "position" INTEGER NOT NULL,
  "sentence_start" INTEGER NOT NULL,
  "sentence_end" INTEGER NOT NULL,
  "text" TEXT NOT NULL,
  "sentence_spans" TEXT NOT NULL,
  "title" TEXT NOT NULL,
  "source" TEXT NOT NULL,
  "published_at" DATETIME,
  "created_at" DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CONSTRAINT "snippets_article_id_fkey" FOREIGN KEY ("article_id") REFERENCES "articles" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "snippets_article_id_position_key" ON "snippets"("article_id", "position");
CREATE INDEX "snippets_published_at_idx" ON "snippets"("published_at");

CREATE TABLE "crawl_events" (
  "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  "feed_id" INTEGER,
  "kind" TEXT NOT NULL,
  "url" TEXT NOT NULL,
  "outcome" TEXT NOT NULL,
  "http_status" INTEGER,
  "duration_ms" INTEGER NOT NULL,
  "bytes" INTEGER NOT NULL DEFAULT 0,
  "items_seen" INTEGER NOT NULL DEFAULT 0,
  "items_new" INTEGER NOT NULL DEFAULT 0,
  "articles_extracted" INTEGER NOT NULL DEFAULT 0,
  "articles_failed" INTEGER NOT NULL DEFAULT 0,
  "snippets_made" INTEGER NOT NULL DEFAULT 0,
  "error_code" TEXT,
  "error" TEXT,
  "created_at" DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CONSTRAINT "crawl_events_feed_id_fkey" FOREIGN KEY ("feed_id") REFERENCES "feeds" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "crawl_events_feed_id_created_at_idx" ON "crawl_events"("feed_id", "created_at");
CREATE INDEX "crawl_events_created_at_idx" ON "crawl_events"("created_at");

CREATE TABLE "feed_items" (
  "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  "feed_id" INTEGER NOT NULL,
  "item_key" TEXT NOT NULL,
  "link" TEXT,
  "title" TEXT,
  "author" TEXT,
  "published_at" DATETIME,
  "fallback_text" TEXT,
  "fallback_source" TEXT,
  "first_seen_at" DATETIME NOT NULL,
  "last_seen_at" DATETIME NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "last_error" TEXT,
  "article_id" INTEGER,
  CONSTRAINT "feed_items_feed_id_fkey" FOREIGN KEY ("feed_id") REFERENCES "feeds" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "feed_items_article_id_fkey" FOREIGN KEY ("article_id") REFERENCES "articles" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "feed_items_feed_id_item_key_key" ON "feed_items"("feed_id", "item_key");
CREATE INDEX "feed_items_feed_id_status_idx" ON "feed_items"("feed_id", "status");
CREATE INDEX "feed_items_article_id_idx" ON "feed_items"("article_id");
