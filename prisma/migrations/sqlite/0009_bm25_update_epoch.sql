-- The BM25 accelerator is brought up to date by the difference of rowids (indexer/bm25/impact-store.ts,
-- updateImpact): rows are immutable within an epoch. An in-place update of a snippet's title or text
-- (which the product never does: a changed article's snippets get new ids) changes content under an
-- id the copy holds, so it starts a new epoch, and the next `quin index` builds the copy from scratch.
DROP TRIGGER "bm25_generation_update";
CREATE TRIGGER "bm25_generation_update" AFTER UPDATE OF "title", "text" ON "snippets" BEGIN
  UPDATE "bm25_generation" SET "epoch" = lower(hex(randomblob(8))), "value" = "value" + 1 WHERE "id" = 1;
END;
