-- The BM25 accelerator's freshness check (indexer/bm25/impact-store.ts): a random epoch and a
-- counter that every write to the FTS5 index "snippets_fts" bumps, in the same transaction (these
-- triggers fire beside 0002's FTS5 triggers). The accelerator's copy of the postings is used only
-- while the counter it was built at is still the live one. SQLite only: with PostgreSQL the FTS5
-- index is a file of its own that carries the same table (indexer/bm25/fts5.ts).
CREATE TABLE "bm25_generation" (
  "id" INTEGER PRIMARY KEY CHECK ("id" = 1),
  "epoch" TEXT NOT NULL,
  "value" INTEGER NOT NULL
);
INSERT INTO "bm25_generation" ("id", "epoch", "value") VALUES (1, lower(hex(randomblob(8))), 0);
CREATE TRIGGER "bm25_generation_insert" AFTER INSERT ON "snippets" BEGIN
  UPDATE "bm25_generation" SET "value" = "value" + 1 WHERE "id" = 1;
END;
CREATE TRIGGER "bm25_generation_delete" AFTER DELETE ON "snippets" BEGIN
  UPDATE "bm25_generation" SET "value" = "value" + 1 WHERE "id" = 1;
END;
CREATE TRIGGER "bm25_generation_update" AFTER UPDATE OF "title", "text" ON "snippets" BEGIN
  UPDATE "bm25_generation" SET "value" = "value" + 1 WHERE "id" = 1;
END;
