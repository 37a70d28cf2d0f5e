-- The snippets removed from the FTS5 index, each with the generation of "bm25_generation" its removal
-- made (0007). Between two index runs the BM25 accelerator answers with its copy less the rows
-- removed since (indexer/bm25/impact-live.ts); it found them by reading every live rowid (~0.3 s at
-- 1M snippets, on the request path after each write that removed rows). Now it reads the rows this
-- log holds above the copy's generation, and checks them against the live row count; a log that
-- lacks some (removals before this migration, entries the indexer has let go) fails the check, and
-- the rowids are read as before. SQLite only, as 0007.
CREATE TABLE "bm25_removed" (
  "rowid" INTEGER PRIMARY KEY,
  "generation" INTEGER NOT NULL
);
CREATE INDEX "bm25_removed_generation_idx" ON "bm25_removed" ("generation");
DROP TRIGGER "bm25_generation_delete";
CREATE TRIGGER "bm25_generation_delete" AFTER DELETE ON "snippets" BEGIN
  UPDATE "bm25_generation" SET "value" = "value" + 1 WHERE "id" = 1;
  INSERT OR REPLACE INTO "bm25_removed" ("rowid", "generation") SELECT old."id", "value" FROM "bm25_generation" WHERE "id" = 1;
END;
